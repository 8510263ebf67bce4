import type { ElementInfo } from '../../../protocol/observation'
import { isTag, truncate } from './dom'

export type FormInfo = NonNullable<ElementInfo['form']>

export function formOf(el: Element): HTMLFormElement | null {
  const owner = (el as HTMLInputElement).form
  if (owner && isTag(owner, 'form')) return owner
  const closest = el.closest('form')
  return closest && isTag(closest, 'form') ? closest : null
}

const SEARCH_NAMES = /^(q|query|search|keyword|keywords|kw|wd|s|k|term|text)$/i

/** A search form is harmless to submit; anything else counts as a submit for the risk check. */
export function isSearchForm(form: HTMLFormElement): boolean {
  if (form.getAttribute('role') === 'search' || form.closest('[role=search], search')) return true
  if (/search|query|\/s\b|[?&]q=/i.test(form.getAttribute('action') ?? '')) return true
  const fields = Array.from(form.elements).filter((f) => isTag(f, 'input') || isTag(f, 'textarea') || isTag(f, 'select'))
  if (fields.some((f) => isTag(f, 'input') && f.type === 'search')) return true
  const textual = fields.filter((f) => (isTag(f, 'input') && ['text', 'search', ''].includes(f.type)) || isTag(f, 'textarea'))
  const visible = fields.filter((f) => !(isTag(f, 'input') && f.type === 'hidden'))
  return textual.length === 1 && visible.length <= 2 && SEARCH_NAMES.test(textual[0]!.getAttribute('name') ?? '')
}

/** `cache` memoises per form for one observation: every field of a form shares its answer. */
export function formInfo(el: Element, cache?: Map<HTMLFormElement, FormInfo>): FormInfo | undefined {
  const form = formOf(el)
  if (!form) return undefined
  const cached = cache?.get(form)
  if (cached) return cached
  const info: FormInfo = { isSearch: isSearchForm(form) }
  const role = form.getAttribute('role')
  if (role) info.role = role
  const action = form.getAttribute('action')
  if (action) info.action = truncate(action, 200)
  cache?.set(form, info)
  return info
}

/** The button a browser clicks on implicit submission (Enter in a field): the form's first submit button. */
export function defaultButtonOf(form: HTMLFormElement): HTMLElement | null {
  for (const el of Array.from(form.elements)) {
    if ((isTag(el, 'button') && el.type === 'submit') || (isTag(el, 'input') && (el.type === 'submit' || el.type === 'image'))) {
      return el as HTMLElement
    }
  }
  return null
}

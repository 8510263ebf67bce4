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
  if (textual.length === 1 && visible.length <= 2 && SEARCH_NAMES.test(textual[0]!.getAttribute('name') ?? '')) return true
  return !form.getAttribute('action') && textual.length === 1 && isSearchLike(textual[0]!) && visible.every((f) => f === textual[0] || isChoiceOrButton(f))
}

const SEARCH_HINT = /search|query|keyword|搜索|查找|查询|检索/i
const SEARCH_ATTRS = ['name', 'id', 'placeholder', 'aria-label', 'title', 'class'] as const

/**
 * A field that reads as a search box. Script-driven pages (React, Vue) often wrap one in a <form> with no
 * address and no name the old rule knows (`<input placeholder="Search products">`); what such a form sends,
 * if anything, the write barrier holds.
 */
function isSearchLike(field: Element): boolean {
  if (!isTag(field, 'input')) return false
  if (field.type === 'search' || field.getAttribute('role') === 'searchbox') return true
  if (field.getAttribute('enterkeyhint') === 'search' || field.getAttribute('inputmode') === 'search') return true
  return SEARCH_ATTRS.some((name) => SEARCH_HINT.test(field.getAttribute(name) ?? ''))
}

/** Fields that narrow a search rather than carry what a person wrote: a category <select>, a checkbox, a button. */
const isChoiceOrButton = (f: Element) =>
  isTag(f, 'select') || (isTag(f, 'input') && ['checkbox', 'radio', 'submit', 'button', 'image', 'reset'].includes(f.type)) || isTag(f, 'button')

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
  // A form that says it submits by GET asks for a page: what it sends is in the address, which the barrier judges
  // like a link's. Only when it says so: a form with no method is as often one a script posts.
  const method = form.getAttribute('method')?.trim().toLowerCase()
  if (method) info.method = method
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

import { createPageInput } from '../input'
import { describeForMessage, ensureActionable } from '../actionability'
import { collapseWhitespace, deepQueryAll, isHtmlElement, isTag, truncate } from '../dom'
import { fail } from '../errors'
import { dispatchChange, dispatchClick, dispatchInput, setNativeValue } from '../events'
import { accessibleName, explicitRole } from '../semantics'
import { visibleProxy } from '../visibility'
import { typeText } from './type-text'
import type { Action } from '../../../../protocol/action'
import { waitUntil } from './wait-for'
import { assertConfirmedIfRisky, type RiskRules } from '../risk-gate'

/** Index of the best option: exact text, exact value, case-insensitive text, then contains. */
export function matchOption(options: { text: string; value?: string }[], wanted: string): number {
  const exact = collapseWhitespace(wanted)
  const lower = exact.toLowerCase()
  const tests = [
    (o: { text: string; value?: string }) => o.text === exact,
    (o: { text: string; value?: string }) => o.value === wanted,
    (o: { text: string; value?: string }) => o.text.toLowerCase() === lower,
    (o: { text: string; value?: string }) => o.text.toLowerCase().includes(lower),
  ]
  for (const test of tests) {
    const at = options.findIndex(test)
    if (at >= 0) return at
  }
  return -1
}

function listOf(names: string[]): string {
  return names.slice(0, 10).map((n) => `"${truncate(n, 40)}"`).join(', ') + (names.length > 10 ? ', …' : '')
}

function selectNative(select: HTMLSelectElement, wanted: string): void {
  ensureActionable(select)
  const options = Array.from(select.options)
  const at = matchOption(options.map((o) => ({ text: collapseWhitespace(o.text), value: o.value })), wanted)
  if (at < 0) fail('TARGET_NOT_FOUND', `no option like "${truncate(wanted, 80)}"; options are ${listOf(options.map((o) => collapseWhitespace(o.text)))}`)
  const option = options[at]!
  if (option.disabled) fail('TARGET_NOT_INTERACTABLE', `option "${truncate(collapseWhitespace(option.text), 80)}" is disabled`)
  select.focus({ preventScroll: true })
  if (select.multiple) option.selected = true
  else setNativeValue(select, option.value)
  dispatchInput(select, 'insertReplacementText', null)
  dispatchChange(select)
}

function idRefs(el: Element, attribute: string): Element[] {
  const ids = el.getAttribute(attribute)?.split(/\s+/).filter(Boolean) ?? []
  const root = el.getRootNode() as Document | ShadowRoot
  return ids.map((id) => root.getElementById?.(id) ?? el.ownerDocument.getElementById(id)).filter((x): x is HTMLElement => !!x)
}

/** Options that belong to the widget: its own, its aria-controls/aria-owns popup, else any visible listbox. */
function optionsFor(widget: Element): Element[] {
  const own = Array.from(widget.querySelectorAll('[role=option]'))
  const popups = [...idRefs(widget, 'aria-controls'), ...idRefs(widget, 'aria-owns')]
  const active = widget.getAttribute('aria-activedescendant')
  const viaPopup = popups.flatMap((p) => (explicitRole(p) === 'option' ? [p] : Array.from(p.querySelectorAll('[role=option]'))))
  const options = [...own, ...viaPopup]
  if (options.length === 0 && active) options.push(...idRefs(widget, 'aria-activedescendant'))
  // A widget that names its popup owns only those options; one that names none may use any open listbox.
  if (options.length || popups.length) return options.filter((o) => visibleProxy(o))
  return deepQueryAll(widget.ownerDocument, '[role=option]').filter((o) => visibleProxy(o))
}

function clickOption(option: Element): void {
  const at = ensureActionable(option)
  dispatchClick(at.hit, at.x, at.y)
}

function findOption(widget: Element, wanted: string): Element | null {
  const options = optionsFor(widget)
  const at = matchOption(options.map((o) => ({ text: accessibleName(o, 200), value: o.getAttribute('data-value') ?? undefined })), wanted)
  return at >= 0 ? options[at]! : null
}

/**
 * Picks an option by its text or value: a native <select> directly; an ARIA listbox by clicking the option;
 * an ARIA combobox (or a button that pops up a listbox) by opening it, typing to filter when it is editable,
 * and clicking the option, as a person would.
 */
export async function selectOption(win: Window, action: Action, el: Element, wanted: string, rules?: RiskRules, timeoutMs = 2000): Promise<void> {
  assertConfirmedIfRisky(win, action, el, { rules })
  const select = isTag(el, 'select') ? el : isTag(el, 'label') && el.control && isTag(el.control, 'select') ? el.control : null
  if (select) return selectNative(select, wanted)

  const role = explicitRole(el)
  if (role === 'option') return clickOption(el)
  if (role === 'listbox') {
    ensureActionable(el)
    const option = findOption(el, wanted)
    if (!option) fail('TARGET_NOT_FOUND', `no option like "${truncate(wanted, 80)}" in ${describeForMessage(el)}`)
    return clickOption(option)
  }
  const popup = el.getAttribute('aria-haspopup')
  if (role !== 'combobox' && popup !== 'listbox' && popup !== 'true' && popup !== 'menu') {
    fail('TARGET_NOT_INTERACTABLE', `${describeForMessage(el)} is not a select, listbox or combobox`)
  }
  const at = ensureActionable(el)
  if (el.getAttribute('aria-expanded') !== 'true') dispatchClick(at.hit, at.x, at.y)
  let option = await waitUntil(win, () => findOption(el, wanted), Math.min(timeoutMs, 1000))
  const editable = isTag(el, 'input') || (isHtmlElement(el) && el.isContentEditable) || el.querySelector('input')
  if (!option && editable) {
    await typeText(win, action, el, { text: wanted, clear: true }, createPageInput(), rules)
    option = await waitUntil(win, () => findOption(el, wanted), timeoutMs)
  }
  if (!option) {
    const seen = optionsFor(el).map((o) => accessibleName(o, 60))
    fail('TARGET_NOT_FOUND', `no option like "${truncate(wanted, 80)}"${seen.length ? `; options are ${listOf(seen)}` : ' appeared after opening it'}`)
  }
  clickOption(option)
}

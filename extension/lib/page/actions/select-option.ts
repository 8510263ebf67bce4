import { actionableSoon, describeForMessage, ensureActionable, type Actionable } from '../actionability'
import { collapseWhitespace, isTag, truncate } from '../dom'
import { fail, noEffect } from '../errors'
import { dispatchChange, dispatchClick, dispatchInput, setNativeValue } from '../events'
import { explicitRole } from '../semantics'
import { isShownBox, visibleProxy } from '../visibility'
import type { Action } from '../../../../protocol/action'
import { settledReading } from './effect'
import { expectShown } from './expect-shown'
import { findInPopup, findOption, listOf, matchOption, optionsFor, optionText } from './find-option'
import { selectFromPopup } from './select-from-popup'
import { settleAfter } from './settle-after'
import { assertConfirmedIfRisky, type RiskGate } from '../risk-gate'

async function selectNative(win: Window, select: HTMLSelectElement, wanted: string): Promise<void> {
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
  // A controlled <select> puts its own value back when the page does not take the change.
  if (!(await settledReading(win, () => option.selected, (chosen) => chosen))) {
    const now = Array.from(select.selectedOptions).map((o) => collapseWhitespace(o.text))
    noEffect(`option "${truncate(collapseWhitespace(option.text), 80)}" chosen`, now.length ? `the select still shows ${listOf(now)}` : 'no option chosen')
  }
}

/** How long an option may stay covered (its popup still sliding in) before the step says so. */
const OPTION_WAIT_MS = 500

/** The option as a person clicks it: scrolled into its list's view, once nothing covers it any more. */
async function optionAt(option: Element): Promise<Actionable> {
  if (!visibleProxy(option)) option.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' })
  return actionableSoon(option, OPTION_WAIT_MS)
}

/** Clicks an option of a listbox; one that says whether it is chosen (aria-selected) must say so afterwards. */
async function clickOption(win: Window, option: Element): Promise<void> {
  const at = await optionAt(option)
  const before = option.getAttribute('aria-selected')
  dispatchClick(at.hit, at.x, at.y)
  if (before !== 'false') return
  const now = await settledReading(win, () => (option.isConnected ? option.getAttribute('aria-selected') : 'true'), (v) => v === 'true')
  if (now === 'false') noEffect(`option "${truncate(optionText(option), 80)}" selected`, 'the option is still not selected')
}

const POPUP_ROLES = new Set(['combobox', 'listbox'])
const isWidget = (el: Element) => {
  const popup = el.getAttribute('aria-haspopup')
  return POPUP_ROLES.has(explicitRole(el) ?? '') || popup === 'listbox' || popup === 'true' || popup === 'menu'
}
const WIDGET = '[role=combobox], [role=listbox], [aria-haspopup=listbox], [aria-haspopup=true], [aria-haspopup=menu]'

/**
 * The combobox a target stands for. A person points at what they see — the box that says 请选择城市, its placeholder
 * or its arrow — while the real combobox may be an invisible <input> beside it: the nearest ancestor holding exactly
 * one combobox names it.
 */
function widgetFor(el: Element): Element | null {
  if (isWidget(el)) return el
  if (isTag(el, 'label') && el.control) return isWidget(el.control) ? el.control : widgetFor(el.control)
  const outer = el.parentElement?.closest(WIDGET)
  let at: Element | null = el
  for (let depth = 0; at && depth < 5; depth++, at = at.parentElement) {
    const inside = Array.from(at.querySelectorAll(WIDGET)).filter((w) => explicitRole(w) !== 'listbox' || !w.closest('[role=combobox]'))
    if (inside.length === 1) return inside[0]!
    if (inside.length > 1) break
  }
  return outer ?? null
}

/**
 * The box a person clicks to open it: the target when they pointed at it, else the widget or the nearest box around
 * it that can be clicked (antd's search box lies under the chosen value once there is one).
 */
function triggerFor(el: Element, widget: Element): { trigger: Element; at: Actionable } {
  const candidates: Element[] = []
  if (isShownBox(el) && (el.contains(widget) || widget.contains(el))) candidates.push(el)
  let up: Element | null = widget
  for (let depth = 0; up && depth < 6; depth++, up = up.parentElement) if (isShownBox(up) && !candidates.includes(up)) candidates.push(up)
  if (isShownBox(el) && !candidates.includes(el)) candidates.push(el)
  let first: unknown
  for (const trigger of candidates) {
    try {
      return { trigger, at: ensureActionable(trigger) }
    } catch (error) {
      first ??= error
    }
  }
  if (first) throw first
  return fail('TARGET_NOT_INTERACTABLE', `${describeForMessage(el)} is not visible, and neither is anything around it to open it by`)
}

/** Closes a popup the step opened and could not use, as Escape does, so it does not cover the page afterwards. */
function closePopup(widget: Element): void {
  const w = widget.ownerDocument.defaultView ?? window
  const target = widget.ownerDocument.activeElement ?? widget
  for (const type of ['keydown', 'keyup'] as const) target.dispatchEvent(new w.KeyboardEvent(type, { key: 'Escape', code: 'Escape', keyCode: 27, bubbles: true, cancelable: true, composed: true }))
}

/**
 * Picks an option by its text or value: a native <select> directly; an ARIA listbox by clicking the option;
 * a combobox — native-looking or a library's (antd, Element Plus, MUI, Radix, Headless UI, react-select) — as a
 * person would: click the box they see, wait for the popup to settle, find the option by its text wherever the
 * popup was portalled (typing to filter, or scrolling a virtual list, when it is not rendered), click it, and check
 * that the box now shows it.
 */
export async function selectOption(win: Window, action: Action, el: Element, wanted: string, gate?: RiskGate, timeoutMs = 2000): Promise<void> {
  assertConfirmedIfRisky(win, action, el, { ...gate })
  const select = isTag(el, 'select') ? el : isTag(el, 'label') && el.control && isTag(el.control, 'select') ? el.control : null
  if (select) return selectNative(win, select, wanted)

  if (explicitRole(el) === 'option') return clickOption(win, el)
  const widget = widgetFor(el)
  if (!widget) return expectShown(el, el, await selectFromPopup(win, el, wanted, describeForMessage))
  if (isTag(widget, 'select')) return selectNative(win, widget, wanted)
  if (explicitRole(widget) === 'listbox' && !widget.closest('[role=combobox]')) {
    ensureActionable(widget)
    const option = findOption(widget, wanted)
    if (!option) fail('TARGET_NOT_FOUND', `no option like "${truncate(wanted, 80)}" in ${describeForMessage(widget)}; options are ${listOf(optionsFor(widget).map(optionText))}`)
    return clickOption(win, option)
  }

  const { trigger, at } = triggerFor(el, widget)
  // The popup fades or slides in: its options are read once it stands still.
  await settleAfter(win, () => {
    if (widget.getAttribute('aria-expanded') !== 'true') dispatchClick(at.hit, at.x, at.y)
  }, 1000)
  const option = await findInPopup(win, widget, wanted, timeoutMs)
  if (!option) {
    const seen = optionsFor(widget).map(optionText)
    closePopup(widget)
    fail('TARGET_NOT_FOUND', `no option like "${truncate(wanted, 80)}"${seen.length ? `; options are ${listOf(seen)}` : ' appeared after opening it'}`)
  }
  if (option.getAttribute('aria-disabled') === 'true' || /\b(is-)?disabled\b|-option-disabled\b/.test(option.getAttribute('class') ?? '')) {
    fail('TARGET_NOT_INTERACTABLE', `option "${truncate(optionText(option), 80)}" is disabled`)
  }
  const picked = optionText(option)
  const pick = await optionAt(option)
  await settleAfter(win, () => dispatchClick(pick.hit, pick.x, pick.y), 1000)
  expectShown(trigger, widget, picked)
}

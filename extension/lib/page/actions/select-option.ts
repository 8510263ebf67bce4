import { describeForMessage, ensureActionable, type Actionable } from '../actionability'
import { collapseWhitespace, deepQueryAll, isHtmlElement, isTag, truncate } from '../dom'
import { fail } from '../errors'
import { dispatchChange, dispatchClick, dispatchInput, setNativeValue } from '../events'
import { accessibleName, explicitRole } from '../semantics'
import { watchSettle } from '../settle'
import { isRendered, visibleProxy } from '../visibility'
import type { Action } from '../../../../protocol/action'
import { waitUntil } from './wait-for'
import { selectFromPopup } from './select-from-popup'
import { assertConfirmedIfRisky, type RiskRules } from '../risk-gate'

/** Index of the best option: exact text, exact value, case-insensitive text, then (unless `exact`) contains. */
export function matchOption(options: { text: string; value?: string }[], wanted: string, exactOnly = false): number {
  const exact = collapseWhitespace(wanted)
  const lower = exact.toLowerCase()
  const tests = [
    (o: { text: string; value?: string }) => o.text === exact,
    (o: { text: string; value?: string }) => o.value === wanted,
    (o: { text: string; value?: string }) => o.text.toLowerCase() === lower,
    (o: { text: string; value?: string }) => o.text.toLowerCase().includes(lower),
  ]
  for (const test of exactOnly ? tests.slice(0, 3) : tests) {
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

/** Shown to a person: rendered with a size, and not clipped away (antd's 0×0 screen-reader list is not). */
const shown = (el: Element) => isRendered(el) && !!visibleProxy(el)

/** An option a person can see or scroll to: shown, or out of view inside a scroll box that is itself shown. */
const shownOption = (el: Element) => {
  if (!isRendered(el)) return false
  if (visibleProxy(el)) return true
  const box = scrollerOf(el)
  if (!box) return false
  const r = box.getBoundingClientRect()
  return r.width > 10 && r.height > 10 && shown(box)
}

/**
 * What a person reads as an option. ARIA options first; the class names are the fallback for libraries whose
 * visible options carry no role (antd keeps its role=option copies in a 0×0 list for screen readers).
 */
const OPTION = '[role=option]'
const OPTION_FALLBACK = '.ant-select-item-option, .el-select-dropdown__item, .ant-cascader-menu-item, [id*="-option-"], [role=menuitem]'

function optionText(o: Element): string {
  return collapseWhitespace(o.textContent ?? '') || accessibleName(o, 200)
}

/**
 * Options that belong to the widget and are shown: its own, those of the popup it names (aria-controls/owns), else
 * any shown option on the page wherever the library portalled its popup.
 */
function optionsFor(widget: Element): Element[] {
  const own = Array.from(widget.querySelectorAll(OPTION)).filter(shownOption)
  if (own.length) return own
  const popups = [...idRefs(widget, 'aria-controls'), ...idRefs(widget, 'aria-owns')]
  const viaPopup = popups.flatMap((p) => (explicitRole(p) === 'option' ? [p] : Array.from(p.querySelectorAll(OPTION)))).filter(shownOption)
  if (viaPopup.length) return viaPopup
  const doc = widget.ownerDocument
  const anywhere = deepQueryAll(doc, OPTION).filter(shownOption)
  if (anywhere.length) return anywhere
  return deepQueryAll(doc, OPTION_FALLBACK).filter(shownOption)
}

function clickOption(option: Element): void {
  // Out of view in its list: brought into it first, as a person scrolls the list.
  if (!visibleProxy(option)) option.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' })
  const at = ensureActionable(option)
  dispatchClick(at.hit, at.x, at.y)
}

/**
 * The option named `wanted` among those shown. `exact` while a list may still hold it out of view: in a virtual list
 * "Option 2" must not settle for a rendered "Option 26" before the real one has been looked for.
 */
function findOption(widget: Element, wanted: string, exact = false): Element | null {
  const options = optionsFor(widget)
  const at = matchOption(options.map((o) => ({ text: optionText(o), value: o.getAttribute('data-value') ?? undefined })), wanted, exact)
  return at >= 0 ? options[at]! : null
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

const big = (el: Element) => {
  const r = el.getBoundingClientRect()
  return r.width >= 16 && r.height >= 12 && shown(el)
}

/**
 * The box a person clicks to open it: the target when they pointed at it, else the widget or the nearest box around
 * it that can be clicked (antd's search box lies under the chosen value once there is one).
 */
function triggerFor(el: Element, widget: Element): { trigger: Element; at: Actionable } {
  const candidates: Element[] = []
  if (big(el) && (el.contains(widget) || widget.contains(el))) candidates.push(el)
  let up: Element | null = widget
  for (let depth = 0; up && depth < 6; depth++, up = up.parentElement) if (big(up) && !candidates.includes(up)) candidates.push(up)
  if (big(el) && !candidates.includes(el)) candidates.push(el)
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

/**
 * The widget's whole box (its value, chips, arrow, clear button): what it now shows is read there. It grows while the
 * box around is no taller (a row, not a form) and holds no label or other field, so another field's words never count.
 */
function valueBox(trigger: Element): Element {
  let box = trigger
  // A search input as narrow as its text (react-select's) stands for the control around it, where chosen values show.
  for (let depth = 0; !big(box) && box.parentElement && depth < 4; depth++) box = box.parentElement
  const r = box.getBoundingClientRect()
  for (let depth = 0, up = box.parentElement; up && depth < 4; depth++, up = up.parentElement) {
    const u = up.getBoundingClientRect()
    if (u.height > r.height + 24 || otherField(up, box)) break
    box = up
  }
  return box
}

const FIELD = 'label, input, select, textarea, [role=combobox], [role=listbox], [role=textbox]'
const otherField = (around: Element, box: Element) => Array.from(around.querySelectorAll(FIELD)).some((f) => !box.contains(f))

/**
 * Whether `text` shows `value` as a whole: "Option 26" does not show "Option 2". Only Latin letters and digits bound
 * a word; CJK text has no spaces, and a box may read "请选择城市上海" while a hidden placeholder stays in it.
 */
function showsWhole(text: string, value: string): boolean {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`(?<![A-Za-z0-9])${escaped}(?![A-Za-z0-9])`, 'i').test(text)
}

/** The box's texts and input values, each apart (antd repeats the value in a title: "Item 87Item 87" as one string). */
function shownValue(box: Element): string {
  const texts: string[] = []
  const walker = box.ownerDocument.createTreeWalker(box, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node.nodeValue ?? '')
  const inputs = Array.from(box.querySelectorAll('input')).map((i) => i.value)
  const self = isTag(box, 'input') ? [box.value] : []
  return collapseWhitespace([...texts, ...inputs, ...self].join(' '))
}

/**
 * The nearest box that scrolls the options. A virtual list's holder may hide its overflow and draw its own scrollbar
 * (antd's rc-virtual-list) while still following its scrollTop, so a clipping box counts too.
 */
function scrollerOf(option: Element): HTMLElement | null {
  for (let at = option.parentElement, depth = 0; at && depth < 8; at = at.parentElement, depth++) {
    const style = at.ownerDocument.defaultView?.getComputedStyle(at)
    if (style && /(auto|scroll|hidden)/.test(style.overflowY) && at.scrollHeight > at.clientHeight + 2) return at
  }
  return null
}

/** Closes a popup the step opened and could not use, as Escape does, so it does not cover the page afterwards. */
function closePopup(widget: Element): void {
  const w = widget.ownerDocument.defaultView ?? window
  const target = widget.ownerDocument.activeElement ?? widget
  for (const type of ['keydown', 'keyup'] as const) target.dispatchEvent(new w.KeyboardEvent(type, { key: 'Escape', code: 'Escape', keyCode: 27, bubbles: true, cancelable: true, composed: true }))
}

const searchInput = (widget: Element): HTMLInputElement | null => {
  const input = isTag(widget, 'input') ? widget : widget.querySelector('input')
  return input && !input.readOnly && !input.disabled ? input : null
}

/** Types the wanted text into a searchable combobox so the library filters its (possibly virtual) list. */
function typeToFilter(input: HTMLInputElement, text: string): void {
  input.focus({ preventScroll: true })
  setNativeValue(input, text)
  dispatchInput(input, 'insertText', text)
}

/** Scrolls the options' box a page at a time until the option is rendered (virtual lists render what is in view). */
async function scrollToFind(win: Window, widget: Element, wanted: string, exact: boolean): Promise<Element | null> {
  const first = optionsFor(widget)[0]
  const scroller = first ? scrollerOf(first) : null
  if (!scroller) return null
  const rendered = () => optionsFor(widget).map(optionText).join('\n')
  // A list opened scrolled to its current value is searched from its top.
  if (scroller.scrollTop > 0) {
    const before = rendered()
    scroller.scrollTop = 0
    await waitUntil(win, () => rendered() !== before, 500, 16)
  }
  for (let i = 0; i < 200; i++) {
    const found = findOption(widget, wanted, exact)
    if (found) return found
    if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) return null
    const before = rendered()
    scroller.scrollTop += Math.max(20, scroller.clientHeight * 0.8)
    // A virtual list renders the new rows a frame or more later: read them only once they have changed.
    await waitUntil(win, () => rendered() !== before, 500, 16)
  }
  return null
}

/**
 * Picks an option by its text or value: a native <select> directly; an ARIA listbox by clicking the option;
 * a combobox — native-looking or a library's (antd, Element Plus, MUI, Radix, Headless UI, react-select) — as a
 * person would: click the box they see, wait for the popup to settle, find the option by its text wherever the
 * popup was portalled (typing to filter, or scrolling a virtual list, when it is not rendered), click it, and check
 * that the box now shows it.
 */
export async function selectOption(win: Window, action: Action, el: Element, wanted: string, rules?: RiskRules, timeoutMs = 2000): Promise<void> {
  assertConfirmedIfRisky(win, action, el, { rules })
  const select = isTag(el, 'select') ? el : isTag(el, 'label') && el.control && isTag(el.control, 'select') ? el.control : null
  if (select) return selectNative(select, wanted)

  if (explicitRole(el) === 'option') return clickOption(el)
  const widget = widgetFor(el)
  if (!widget) return expectShown(el, el, await selectFromPopup(win, el, wanted, describeForMessage))
  if (isTag(widget, 'select')) return selectNative(widget, wanted)
  if (explicitRole(widget) === 'listbox' && !widget.closest('[role=combobox]')) {
    ensureActionable(widget)
    const option = findOption(widget, wanted)
    if (!option) fail('TARGET_NOT_FOUND', `no option like "${truncate(wanted, 80)}" in ${describeForMessage(widget)}; options are ${listOf(optionsFor(widget).map(optionText))}`)
    return clickOption(option)
  }

  const { trigger, at } = triggerFor(el, widget)
  const opening = watchSettle(win)
  if (widget.getAttribute('aria-expanded') !== 'true') dispatchClick(at.hit, at.x, at.y)
  // The popup fades or slides in: its options are read once it stands still.
  await opening.settled({ maxMs: 1000 })
  // Options that appear a moment after the popup (loaded, or rendered in chunks) are waited for briefly.
  await waitUntil(win, () => optionsFor(widget).length > 0, 300)
  let option = findOption(widget, wanted, true)
  const input = option ? null : searchInput(widget)
  if (!option && input) {
    typeToFilter(input, wanted)
    option = await waitUntil(win, () => findOption(widget, wanted, true), timeoutMs)
  }
  option ??= (await scrollToFind(win, widget, wanted, true)) ?? findOption(widget, wanted) ?? (await scrollToFind(win, widget, wanted, false))
  if (!option) {
    const seen = optionsFor(widget).map(optionText)
    closePopup(widget)
    fail('TARGET_NOT_FOUND', `no option like "${truncate(wanted, 80)}"${seen.length ? `; options are ${listOf(seen)}` : ' appeared after opening it'}`)
  }
  if (option.getAttribute('aria-disabled') === 'true' || /\b(is-)?disabled\b|-option-disabled\b/.test(option.getAttribute('class') ?? '')) {
    fail('TARGET_NOT_INTERACTABLE', `option "${truncate(optionText(option), 80)}" is disabled`)
  }
  const picked = optionText(option)
  const choosing = watchSettle(win)
  try {
    clickOption(option)
  } catch (error) {
    choosing.stop()
    throw error
  }
  await choosing.settled({ maxMs: 1000 })
  expectShown(trigger, widget, picked)
}

/** What the widget shows now is the proof: a click the library did not take leaves the old value (or none). */
function expectShown(trigger: Element, widget: Element, picked: string): void {
  const box = trigger.isConnected ? valueBox(trigger) : null
  const showing = box ? shownValue(box) : ''
  if (box && !showsWhole(showing, picked)) {
    fail('TARGET_NOT_INTERACTABLE', `clicked option "${truncate(picked, 80)}", but ${describeForMessage(widget)} shows ${showing ? `"${truncate(showing, 80)}"` : 'nothing'}`)
  }
}

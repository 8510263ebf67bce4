import { collapseWhitespace, deepQueryAll, isTag, truncate } from '../dom'
import { setNativeValue, dispatchInput } from '../events'
import { accessibleName, explicitRole } from '../semantics'
import { isRendered, isShown, visibleProxy } from '../visibility'
import { waitUntil } from './wait-for'

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

/** The options a failure names, so the model can pick one that is there. */
export function listOf(names: string[]): string {
  return names.slice(0, 10).map((n) => `"${truncate(n, 40)}"`).join(', ') + (names.length > 10 ? ', …' : '')
}

function idRefs(el: Element, attribute: string): Element[] {
  const ids = el.getAttribute(attribute)?.split(/\s+/).filter(Boolean) ?? []
  const root = el.getRootNode() as Document | ShadowRoot
  return ids.map((id) => root.getElementById?.(id) ?? el.ownerDocument.getElementById(id)).filter((x): x is HTMLElement => !!x)
}

/** An option a person can see or scroll to: shown, or out of view inside a scroll box that is itself shown. */
const shownOption = (el: Element) => {
  if (!isRendered(el)) return false
  if (visibleProxy(el)) return true
  const box = scrollerOf(el)
  if (!box) return false
  const r = box.getBoundingClientRect()
  return r.width > 10 && r.height > 10 && isShown(box)
}

/**
 * What a person reads as an option. ARIA options first; the class names are the fallback for libraries whose
 * visible options carry no role (antd keeps its role=option copies in a 0×0 list for screen readers).
 */
const OPTION = '[role=option]'
const OPTION_FALLBACK = '.ant-select-item-option, .el-select-dropdown__item, .ant-cascader-menu-item, [id*="-option-"], [role=menuitem]'

export function optionText(o: Element): string {
  return collapseWhitespace(o.textContent ?? '') || accessibleName(o, 200)
}

/**
 * Options that belong to the widget and are shown: its own, those of the popup it names (aria-controls/owns), else
 * any shown option on the page wherever the library portalled its popup.
 */
export function optionsFor(widget: Element): Element[] {
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

/**
 * The option named `wanted` among those shown. `exact` while a list may still hold it out of view: in a virtual list
 * "Option 2" must not settle for a rendered "Option 26" before the real one has been looked for.
 */
export function findOption(widget: Element, wanted: string, exact = false): Element | null {
  const options = optionsFor(widget)
  const at = matchOption(options.map((o) => ({ text: optionText(o), value: o.getAttribute('data-value') ?? undefined })), wanted, exact)
  return at >= 0 ? options[at]! : null
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
 * The option named `wanted` in a widget's open popup, looked for as a person looks: among the options shown (once
 * any appear), then by typing to filter a searchable box, then by scrolling a virtual list; an exact match first
 * everywhere, a partial one only when no exact one exists.
 */
export async function findInPopup(win: Window, widget: Element, wanted: string, timeoutMs: number): Promise<Element | null> {
  // Options that appear a moment after the popup (loaded, or rendered in chunks) are waited for briefly.
  await waitUntil(win, () => optionsFor(widget).length > 0, 300)
  let option = findOption(widget, wanted, true)
  const input = option ? null : searchInput(widget)
  if (!option && input) {
    typeToFilter(input, wanted)
    option = await waitUntil(win, () => findOption(widget, wanted, true), timeoutMs)
  }
  return option ?? (await scrollToFind(win, widget, wanted, true)) ?? findOption(widget, wanted) ?? (await scrollToFind(win, widget, wanted, false))
}

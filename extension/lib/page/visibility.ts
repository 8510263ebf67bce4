import { isTag } from './dom'
import { shortText } from './semantics'
import { pointableToggle } from './transparent-toggle'

const VISIBILITY_OPTIONS = { checkOpacity: true, checkVisibilityCSS: true, opacityProperty: true, visibilityProperty: true }

/** Rendered, not transparent, not `visibility:hidden`, and bigger than the 1px screen-reader-only trick. */
export function isRendered(el: Element, rect: DOMRect = el.getBoundingClientRect()): boolean {
  if (rect.width * rect.height <= 1) return false
  if (typeof el.checkVisibility === 'function') return el.checkVisibility(VISIBILITY_OPTIONS)
  const style = el.ownerDocument.defaultView?.getComputedStyle(el)
  return !!style && style.visibility !== 'hidden' && style.display !== 'none' && style.opacity !== '0'
}

const position = (el: Element) => el.ownerDocument.defaultView?.getComputedStyle(el).position ?? 'static'

/** Whether `clipper` clips `el`: fixed boxes escape it, and absolute ones unless their containing block is inside it. */
function clipsIt(el: Element, clipper: Element): boolean {
  let absolute = false
  for (let node: Element | null = el; node && node !== clipper; node = node.parentElement) {
    const pos = position(node)
    if (pos === 'fixed') return false
    if (node !== el && absolute && pos !== 'static') absolute = false
    if (pos === 'absolute') absolute = true
  }
  return !absolute || position(clipper) !== 'static'
}

/**
 * Cut away whole by an ancestor that hides its overflow (a button inside a zero-size `overflow:hidden` box): laid
 * out, yet nobody can see it. Styles are read only for an ancestor the element lies wholly outside of, which is rare.
 */
export function clippedAway(el: Element, rect: DOMRect): boolean {
  const doc = el.ownerDocument
  for (let node = el.parentElement; node && node !== doc.body && node !== doc.documentElement; node = node.parentElement) {
    const box = node.getBoundingClientRect()
    const w = Math.min(rect.right, box.right) - Math.max(rect.left, box.left)
    const h = Math.min(rect.bottom, box.bottom) - Math.max(rect.top, box.top)
    if (w > 0 && h > 0 && w * h > 1) continue
    const style = doc.defaultView?.getComputedStyle(node)
    if (style && (style.overflowX !== 'visible' || style.overflowY !== 'visible') && clipsIt(el, node)) return true
  }
  return false
}

const BOX_ROLES = new Set(['combobox', 'textbox', 'searchbox'])
const PROXY_DEPTH = 4

/**
 * The box a transparent text or combobox control is drawn through: antd and Element Plus keep the combobox
 * `<input>` at `opacity:0` inside a visible selector box that shows the placeholder or the chosen value. Only a
 * control a person can reach (not `aria-hidden`, not `tabindex=-1` like MUI's native input), laid out, and inside
 * a small visible box with no other control of its own.
 */
function transparentControlBox(el: Element, rect: DOMRect): { shown: Element; rect: DOMRect } | null {
  const role = el.getAttribute('role')
  const field = isTag(el, 'input') ? !['checkbox', 'radio', 'file', 'hidden', 'button', 'submit', 'reset', 'image', 'range', 'color'].includes(el.type) : isTag(el, 'textarea') || isTag(el, 'select')
  if (!field && !(role && BOX_ROLES.has(role))) return null
  if (el.getAttribute('aria-hidden') === 'true' || el.getAttribute('tabindex') === '-1' || (el as HTMLInputElement).disabled) return null
  if (rect.width === 0 && rect.height === 0) return null
  // Transparent, not display:none or visibility:hidden: those hide the whole widget.
  if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ visibilityProperty: true })) return null
  // The first box that shows words (the placeholder or the value), else the first box at all.
  let first: { shown: Element; rect: DOMRect } | null = null
  let node = el.parentElement
  for (let depth = 0; node && depth < PROXY_DEPTH; depth++, node = node.parentElement) {
    if (node.localName === 'body' || node.localName === 'form' || node.localName === 'label') break
    const others = node.querySelectorAll('input:not([type=hidden]), select, textarea, button, a[href], [role=combobox], [role=textbox], [role=button]')
    if (Array.from(others).some((other) => other !== el && other.getAttribute('aria-hidden') !== 'true')) break
    const box = node.getBoundingClientRect()
    if (box.width < 16 || box.height < 12 || box.height > 120) continue
    if (!isRendered(node, box) || clippedAway(node, box)) continue
    // A box a person points at (a selector, a field frame); an unstyled wrapper around a honeypot field is not one.
    const cursor = node.ownerDocument.defaultView?.getComputedStyle(node).cursor
    if (cursor !== 'pointer' && cursor !== 'text') continue
    const found = { shown: node, rect: box }
    if (shortText(node, 20)) return found
    first ??= found
  }
  return first
}

/** An element with no box of its own (a link around a floated image): the first shown box inside it. */
function boxInside(el: Element): { shown: Element; rect: DOMRect } | null {
  let checked = 0
  const walker = el.ownerDocument.createTreeWalker(el, 1)
  for (let node = walker.nextNode() as Element | null; node && checked < 12; node = walker.nextNode() as Element | null, checked++) {
    const rect = node.getBoundingClientRect()
    if (isRendered(node, rect) && !clippedAway(node, rect)) return { shown: node, rect }
  }
  return null
}

/**
 * A link that is transparent (`opacity:0`) yet laid over a card: a person clicking the card clicks it, so the card
 * is what they see of it.
 */
function overlaidCard(el: Element, rect: DOMRect): { shown: Element; rect: DOMRect } | null {
  if (!(isTag(el, 'a') && el.hasAttribute('href'))) return null
  const view = el.ownerDocument.defaultView
  const style = view?.getComputedStyle(el)
  if (!style || (style.position !== 'absolute' && style.position !== 'fixed') || style.pointerEvents === 'none') return null
  if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ visibilityProperty: true })) return null
  const card = el.parentElement
  if (!card) return null
  const box = card.getBoundingClientRect()
  if (!isRendered(card, box) || rect.width * rect.height < box.width * box.height * 0.5) return null
  return { shown: card, rect: box }
}

/**
 * What a person actually sees and clicks for an element: itself; for a visually hidden checkbox/radio/file
 * input (custom-styled controls), its first visible <label>, else itself where it lies transparent over the spot a
 * person clicks; for a transparent combobox or text input, the box
 * drawn around it; for an element with no box (a link around a floated image), the box inside it; for a
 * transparent link laid over a card, the card. Null when nothing of it is visible.
 */
export function visibleProxy(el: Element): { shown: Element; rect: DOMRect } | null {
  const rect = el.getBoundingClientRect()
  if (isRendered(el, rect)) return clippedAway(el, rect) ? null : { shown: el, rect }
  if (isTag(el, 'input') && ['checkbox', 'radio', 'file'].includes(el.type) && el.labels) {
    for (const label of Array.from(el.labels)) {
      const labelRect = label.getBoundingClientRect()
      if (isRendered(label, labelRect)) return { shown: label, rect: labelRect }
    }
  }
  if (pointableToggle(el, rect) && !clippedAway(el, rect)) return { shown: el, rect }
  if (rect.width * rect.height <= 1) {
    if (el.localName === 'a' || el.getAttribute('role') === 'link' || el.localName === 'button') {
      // Only when the element itself is not hidden: its content's box then is its box.
      if (typeof el.checkVisibility !== 'function' || el.checkVisibility(VISIBILITY_OPTIONS)) return boxInside(el)
    }
    return null
  }
  return transparentControlBox(el, rect) ?? overlaidCard(el, rect)
}

/** Whether `shown` is a box drawn for the control rather than the control itself or its <label>. */
export function isProxyBox(el: Element, shown: Element): boolean {
  return shown !== el && !isTag(shown, 'label') && !el.contains(shown)
}

/** Shown to a person: rendered with a size, and not clipped away (antd's 0×0 screen-reader list is not). */
export const isShown = (el: Element): boolean => isRendered(el) && !!visibleProxy(el)

/** A shown box large enough to be pointed at and to hold words (a field's frame, not its icon or caret). */
export const isShownBox = (el: Element): boolean => {
  const r = el.getBoundingClientRect()
  return r.width >= 16 && r.height >= 12 && isShown(el)
}

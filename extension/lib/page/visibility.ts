import { isTag } from './dom'

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

/**
 * What a person actually sees and clicks for an element: itself, or for a visually hidden checkbox/radio/file
 * input (custom-styled controls), its first visible <label>. Null when neither is visible.
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
  return null
}

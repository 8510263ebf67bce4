import { isTag } from './dom'

const VISIBILITY_OPTIONS = { checkOpacity: true, checkVisibilityCSS: true, opacityProperty: true, visibilityProperty: true }

/** Rendered, not transparent, not `visibility:hidden`, and bigger than the 1px screen-reader-only trick. */
export function isRendered(el: Element, rect: DOMRect = el.getBoundingClientRect()): boolean {
  if (rect.width * rect.height <= 1) return false
  if (typeof el.checkVisibility === 'function') return el.checkVisibility(VISIBILITY_OPTIONS)
  const style = el.ownerDocument.defaultView?.getComputedStyle(el)
  return !!style && style.visibility !== 'hidden' && style.display !== 'none' && style.opacity !== '0'
}

/**
 * What a person actually sees and clicks for an element: itself, or for a visually hidden checkbox/radio/file
 * input (custom-styled controls), its first visible <label>. Null when neither is visible.
 */
export function visibleProxy(el: Element): { shown: Element; rect: DOMRect } | null {
  const rect = el.getBoundingClientRect()
  if (isRendered(el, rect)) return { shown: el, rect }
  if (isTag(el, 'input') && ['checkbox', 'radio', 'file'].includes(el.type) && el.labels) {
    for (const label of Array.from(el.labels)) {
      const labelRect = label.getBoundingClientRect()
      if (isRendered(label, labelRect)) return { shown: label, rect: labelRect }
    }
  }
  return null
}

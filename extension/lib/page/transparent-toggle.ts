import { isTag } from './dom'

const MIN_SIDE = 8

/** Whether `inner` lies at least partly inside `outer`. */
const overlaps = (inner: DOMRect, outer: DOMRect) => inner.right > outer.left && inner.left < outer.right && inner.bottom > outer.top && inner.top < outer.bottom

/**
 * A checkbox or radio left transparent over the spot a person clicks, its look drawn by something else (TodoMVC's
 * circle is the background of a label that is not the input's; MUI draws an svg under it): an `opacity:0` input with
 * a box of its own that the pointer reaches where it lies: the point at its centre hits it. Out of view it only has to
 * lie within its container, as a person scrolls to it.
 */
export function pointableToggle(el: Element, rect: DOMRect): boolean {
  if (!isTag(el, 'input') || (el.type !== 'checkbox' && el.type !== 'radio')) return false
  if (rect.width < MIN_SIDE || rect.height < MIN_SIDE) return false
  // Transparent only: display:none, visibility:hidden or a hidden ancestor hide the whole control.
  if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ visibilityProperty: true })) return false
  const view = el.ownerDocument.defaultView
  const x = rect.left + rect.width / 2
  const y = rect.top + rect.height / 2
  if (!view || x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) {
    const container = el.parentElement
    return !!container && overlaps(rect, container.getBoundingClientRect())
  }
  const hit = (el.getRootNode() as Document | ShadowRoot).elementFromPoint(x, y)
  // Only the input itself: a container reported there may be drawing over it (its ::after), taking the click.
  return hit === el
}

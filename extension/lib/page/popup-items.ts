/**
 * A popup inside a clickable box: a custom select's wrapper (selectric's) takes the pointer for all it holds, its
 * list of options included, laid out below it. The box covers what lies within it; the popup lying beyond it is
 * clicked item by item.
 */

/** Positioned out of the flow, with most of its box outside the box of `cover` (or with no box yet: closed). */
export function laidOutside(el: Element, cover: Element): boolean {
  const position = el.ownerDocument.defaultView?.getComputedStyle(el).position
  if (position !== 'absolute' && position !== 'fixed') return false
  const own = el.getBoundingClientRect()
  const box = cover.getBoundingClientRect()
  const w = Math.max(0, Math.min(own.right, box.right) - Math.max(own.left, box.left))
  const h = Math.max(0, Math.min(own.bottom, box.bottom) - Math.max(own.top, box.top))
  return w * h < own.width * own.height * 0.5 || own.width * own.height === 0
}

const firstClass = (el: Element) => (el.getAttribute('class') ?? '').trim().split(/\s+/)[0]

/**
 * One of a list's items: an `li`, or an element beside another of its tag and first class (a hand-made list's
 * `div.option` rows, the chosen one `div.option.selected`).
 */
export function repeatedItem(el: Element): boolean {
  if (el.localName === 'li') return true
  const kind = firstClass(el)
  const same = (other: Element | null) => !!other && other.localName === el.localName && firstClass(other) === kind
  return same(el.previousElementSibling) || same(el.nextElementSibling)
}

import { composedParent } from '../dom'

function isScrollable(el: Element): boolean {
  if (el.scrollHeight <= el.clientHeight + 1) return false
  const overflow = el.ownerDocument.defaultView?.getComputedStyle(el).overflowY
  return overflow === 'auto' || overflow === 'scroll' || overflow === 'overlay'
}

/** The element itself if it scrolls, else its nearest scrolling ancestor (null: the page). */
export function scrollContainerOf(el: Element): Element | null {
  for (let node: Element | null = el; node; node = composedParent(node)) {
    if (node === node.ownerDocument.documentElement || node === node.ownerDocument.body) return null
    if (isScrollable(node)) return node
  }
  return null
}

/**
 * Scrolls the page, or the box that holds `el` (a list, a modal body, a frame), by `amount` pixels:
 * default ~90% of what is visible, so one line of context stays on screen.
 */
export function scrollBy(win: Window, el: Element | null, direction: 'up' | 'down', amount?: number): void {
  const container = el ? scrollContainerOf(el) : null
  const sign = direction === 'down' ? 1 : -1
  if (container) {
    container.scrollBy({ top: sign * (amount ?? Math.round(container.clientHeight * 0.9)), behavior: 'instant' })
    return
  }
  const view = el?.ownerDocument.defaultView ?? win
  view.scrollBy({ top: sign * (amount ?? Math.round(view.innerHeight * 0.9)), behavior: 'instant' })
}

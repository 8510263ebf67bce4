import { composedParent } from '../dom'
import { noEffect } from '../errors'
import { settledReading } from './effect'

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

/** Whether some box on the page scrolls its own content (looked for only when the page itself does not scroll). */
function hasScrollingPane(doc: Document): boolean {
  const all = doc.body ? doc.body.getElementsByTagName('*') : []
  for (let i = 0; i < Math.min(all.length, 5000); i++) if (isScrollable(all[i]!)) return true
  return !!doc.body && isScrollable(doc.body)
}

/**
 * Scrolls the page, or the box that holds `el` (a list, a modal body, a frame), by `amount` pixels:
 * default ~90% of what is visible, so one line of context stays on screen. A scroll that did not move (already at
 * the end it went to) says so: more of the same would not show anything new.
 */
export async function scrollBy(win: Window, el: Element | null, direction: 'up' | 'down', amount?: number): Promise<void> {
  const container = el ? scrollContainerOf(el) : null
  const sign = direction === 'down' ? 1 : -1
  const view = el?.ownerDocument.defaultView ?? win
  const position = () => (container ? container.scrollTop : view.scrollY)
  const before = position()
  if (container) container.scrollBy({ top: sign * (amount ?? Math.round(container.clientHeight * 0.9)), behavior: 'instant' })
  else view.scrollBy({ top: sign * (amount ?? Math.round(view.innerHeight * 0.9)), behavior: 'instant' })
  if (amount === 0) return
  // A box already at the end it scrolls to cannot move, so there is nothing to wait for; another may move a moment
  // late (scroll snapping, a list that re-lays itself out), and the position is what the step itself moved.
  const box = container ?? view.document.scrollingElement
  const atEnd = !!box && (sign > 0 ? box.scrollTop + box.clientHeight >= box.scrollHeight - 1 : box.scrollTop <= 0)
  const after = atEnd ? position() : await settledReading(win, position, (y) => Math.abs(y - before) >= 1, 100)
  if (Math.abs(after - before) < 1) {
    const where = container ? 'the list' : 'the page'
    const root = view.document.scrollingElement
    if (!container && root && root.scrollHeight <= view.innerHeight + 1) {
      // Everything is already in view: a look that finds nothing more is no failure.
      if (!hasScrollingPane(view.document)) return
      // The content scrolls inside a box (an app's main pane): that box is what to scroll.
      noEffect(`the page scrolled ${direction}`, 'the page itself does not scroll; a list or pane inside it does: scroll with its index')
    }
    noEffect(`${where} scrolled ${direction}`, `${where} did not move: already at the ${direction === 'down' ? 'bottom' : 'top'} (scroll position ${Math.round(after)})`)
  }
}

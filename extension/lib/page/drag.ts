import { labelledByText } from './accname'
import { collapseWhitespace, deepQueryAll, truncate } from './dom'
import { shortText } from './semantics'

const MAX_DRAGGABLES = 300

/**
 * Where a dragged item can go, when the page has items a person can drag (`draggable=true`): what says it takes
 * drops (`aria-dropeffect`), each draggable's container (a board's column, a list), and the containers like it
 * beside it — the empty "已完成" column holds no card yet, but it is where a card goes.
 */
export function dropZones(doc: Document): Set<Element> {
  const zones = new Set<Element>()
  const draggables = deepQueryAll(doc, '[draggable="true"]', MAX_DRAGGABLES)
  if (draggables.length === 0) return zones
  for (const zone of deepQueryAll(doc, '[aria-dropeffect]:not([aria-dropeffect="none"])', 50)) zones.add(zone)
  const containers = new Set<Element>()
  for (const item of draggables) {
    let container = item.parentElement
    // An item wrapped alone (`li > div[draggable]`): the list around the wrappers is its container.
    if (container && container.childElementCount === 1 && container.parentElement) container = container.parentElement
    if (container && container.localName !== 'body' && container.localName !== 'html') containers.add(container)
  }
  for (const container of containers) {
    if (worthNaming(container)) zones.add(container)
    const parent = container.parentElement
    if (!parent) continue
    for (let sibling = parent.firstElementChild; sibling; sibling = sibling.nextElementSibling) {
      if (sibling !== container && sibling.localName === container.localName && sibling.className === container.className && worthNaming(sibling)) zones.add(sibling)
    }
  }
  return zones
}

/**
 * A container is offered as a place to drop when it says what it is (a label, a heading: a board's column) or holds
 * nothing yet; an unnamed list of items would read as its items' words, and its items are already there to drop on.
 */
const worthNaming = (el: Element) => !!ownName(el, 80) || !collapseWhitespace(el.textContent ?? '')

function ownName(el: Element, max: number): string {
  const named = labelledByText(el, max) || collapseWhitespace(el.getAttribute('aria-label') ?? '')
  if (named) return truncate(named, max)
  const heading = el.querySelector('h1, h2, h3, h4, h5, h6, [role="heading"], legend, caption')
  return heading ? shortText(heading, max) : ''
}

/** A drop zone's name: its label, else its heading, else the start of its text. */
export function zoneName(el: Element, max: number): string {
  return ownName(el, max) || shortText(el, Math.min(max, 30))
}

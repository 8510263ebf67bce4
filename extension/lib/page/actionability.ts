import { collapseWhitespace, composedContains, crossParent, frameOffset, hostFrameOf, truncate } from './dom'
import { PageActionError, fail } from './errors'
import { isDisabled, isSemanticInteractive, shortText } from './semantics'
import { visibleProxy } from './visibility'

export interface Actionable {
  /** The element the action is about. */
  element: Element
  /** What receives the pointer: the element, or the visible <label> of a visually hidden checkbox. */
  pointerTarget: Element
  /** Innermost element under the point (a real click lands there and bubbles up). */
  hit: Element
  /** Point in the element's own viewport (its frame's coordinates). */
  x: number
  y: number
}

/** Short human description of an element, for error messages ("covered by <div.modal-backdrop> Sign up"). */
export function describeForMessage(el: Element): string {
  const id = el.id ? `#${el.id}` : ''
  const classes = typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\s+/).slice(0, 2).join('.') : ''
  const text = truncate(collapseWhitespace(shortText(el, 40)), 40)
  return `<${el.localName}${id}${classes}>${text ? ` "${text}"` : ''}`
}

/** elementFromPoint that looks inside open shadow roots. */
export function deepElementFromPoint(doc: Document, x: number, y: number): Element | null {
  let hit = doc.elementFromPoint(x, y)
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y)
    if (!inner || inner === hit) break
    hit = inner
  }
  return hit
}

function frameChain(doc: Document): Element[] {
  const chain: Element[] = []
  for (let frame = hostFrameOf(doc); frame; frame = hostFrameOf(frame.ownerDocument)) chain.unshift(frame)
  return chain
}

function isFullyInView(rect: DOMRect, win: Window): boolean {
  return rect.top >= 0 && rect.left >= 0 && rect.bottom <= win.innerHeight && rect.right <= win.innerWidth
}

/** Scrolls the element (and the frames around it, outermost first) into view, only when it is not already. */
export function scrollIntoViewIfNeeded(el: Element): void {
  for (const frame of frameChain(el.ownerDocument)) {
    const view = frame.ownerDocument.defaultView
    if (view && !isFullyInView(frame.getBoundingClientRect(), view)) frame.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' })
  }
  const view = el.ownerDocument.defaultView
  if (view && !isFullyInView(el.getBoundingClientRect(), view)) el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' })
}

function acceptsHit(target: Element, element: Element, hit: Element | null): boolean {
  if (!hit) return false
  if (composedContains(target, hit) || composedContains(element, hit)) return true
  // pointer-events:none on the element lets the click through to its own container: nothing covers it.
  if (composedContains(hit, target)) return true
  const labels = (element as HTMLInputElement).labels
  return !!labels && Array.from(labels).some((label) => composedContains(label, hit))
}

/** Scrolls the element to the middle of its scroll containers (and the viewport), where a bar at an edge is not. */
function scrollToCentre(el: Element): void {
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' })
}

/** The point a person would aim at on the element as it now lies, or what covers every such point. */
function pointOn(element: Element, target: Element): Actionable | { cover: Element | null } {
  const doc = target.ownerDocument
  const view = doc.defaultView!
  const rect = target.getBoundingClientRect()
  const left = Math.max(rect.left, 0)
  const right = Math.min(rect.right, view.innerWidth)
  const top = Math.max(rect.top, 0)
  const bottom = Math.min(rect.bottom, view.innerHeight)
  if (right <= left || bottom <= top) fail('TARGET_NOT_INTERACTABLE', `${describeForMessage(element)} could not be scrolled into view`)

  // The centre first, then a grid: odd shapes, partial overlaps, and cards whose centre is a nested link.
  const points: [number, number][] = [[(left + right) / 2, (top + bottom) / 2]]
  for (const fy of [0.5, 0.2, 0.8]) for (const fx of [0.15, 0.5, 0.85]) points.push([left + (right - left) * fx, top + (bottom - top) * fy])
  let firstCover: Element | null = null
  let fallback: Actionable | null = null
  for (const [x, y] of points) {
    const hit = deepElementFromPoint(doc, x, y)
    if (!acceptsHit(target, element, hit)) {
      firstCover ??= hit
      continue
    }
    const cover = coveredInParents(doc, x, y)
    if (cover) {
      firstCover ??= cover
      continue
    }
    const at: Actionable = { element, pointerTarget: target, hit: hit && composedContains(target, hit) ? hit : target, x, y }
    if (!nestedControlAt(target, at.hit)) return at
    fallback ??= at
  }
  return fallback ?? { cover: firstCover }
}

/**
 * Makes sure a person could do this to the element now: on the page, scrolled into view, visible, enabled
 * (when asked), and not covered by something else (a modal, a cookie banner) at the point we would click.
 * A covered element is scrolled to the middle and looked at once more, as a person scrolls a link out from under
 * a sticky header; `recentre: false` leaves the page where it is (a popup still sliding in is waited for instead).
 */
export function ensureActionable(element: Element, opts: { requireEnabled?: boolean; recentre?: boolean } = {}): Actionable {
  if (!element.isConnected) fail('TARGET_STALE', 'the element is no longer on the page; observe the page again')
  scrollIntoViewIfNeeded(element)
  const visible = visibleProxy(element)
  if (!visible) fail('TARGET_NOT_INTERACTABLE', `${describeForMessage(element)} is not visible (hidden, zero-size or transparent)`)
  if (opts.requireEnabled !== false && isDisabled(element)) fail('TARGET_NOT_INTERACTABLE', `${describeForMessage(element)} is disabled`)

  const target = visible.shown
  let found = pointOn(element, target)
  if ('cover' in found && opts.recentre !== false) {
    scrollToCentre(target)
    found = pointOn(element, target)
  }
  if ('hit' in found) return found
  fail('TARGET_NOT_INTERACTABLE', `${describeForMessage(element)} is covered by ${found.cover ? describeForMessage(found.cover) : 'something outside the page'}`)
}

/**
 * ensureActionable, tried again for up to `withinMs` while the element is covered, hidden or disabled: an option of a
 * popup still sliding in (some libraries turn its pointer events off until it stands still) is clicked once it is
 * there, as a person waits for it.
 */
export async function actionableSoon(element: Element, withinMs: number, opts: { requireEnabled?: boolean } = {}): Promise<Actionable> {
  const win = element.ownerDocument.defaultView ?? window
  const deadline = Date.now() + withinMs
  for (;;) {
    // Scrolling would move what is still coming in: the page is scrolled only once the wait is over.
    const last = Date.now() >= deadline
    try {
      return ensureActionable(element, { ...opts, recentre: last })
    } catch (error) {
      if (!(error instanceof PageActionError) || error.code !== 'TARGET_NOT_INTERACTABLE' || last) throw error
    }
    await new Promise((resolve) => win.setTimeout(resolve, 16))
  }
}

/** A control inside the target under the point (the link in a clickable card): clicking there means that control. */
function nestedControlAt(target: Element, hit: Element): boolean {
  for (let node: Node | null = hit; node && node !== target; node = crossParent(node)) {
    if (node.nodeType === 1 && isSemanticInteractive(node as Element)) return true
  }
  return false
}

/** For an element in a frame: whatever sits over the frame itself at that point in the outer documents. */
function coveredInParents(doc: Document, x: number, y: number): Element | null {
  const frame = hostFrameOf(doc)
  if (!frame) return null
  const offset = frameOffset(doc)
  const outer = frameOffset(frame.ownerDocument)
  const hit = deepElementFromPoint(frame.ownerDocument, x + offset.x - outer.x, y + offset.y - outer.y)
  if (hit !== frame) return hit
  return coveredInParents(frame.ownerDocument, x + offset.x - outer.x, y + offset.y - outer.y)
}

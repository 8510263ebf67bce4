/**
 * DOM helpers that work across realms: elements inside same-origin iframes belong to another Window,
 * so `instanceof HTMLInputElement` is false for them. Everything here goes by tag name and ownerDocument.
 */

const HTML_NS = 'http://www.w3.org/1999/xhtml'

export function isTag<K extends keyof HTMLElementTagNameMap>(el: Element, tag: K): el is HTMLElementTagNameMap[K] {
  return el.localName === tag && el.namespaceURI === HTML_NS
}

export function isHtmlElement(el: Element): el is HTMLElement {
  return el.namespaceURI === HTML_NS
}

export function windowOf(node: Node): Window {
  const win = (node.ownerDocument ?? (node as Document)).defaultView
  if (!win) throw new Error('node has no window (detached document)')
  return win
}

/** The document of a same-origin frame, or null (cross-origin frames throw or return null: skip them silently). */
export function frameDocument(el: Element): Document | null {
  if (el.localName !== 'iframe' && el.localName !== 'frame') return null
  try {
    const doc = (el as HTMLIFrameElement).contentDocument
    return doc && doc.documentElement ? doc : null
  } catch {
    return null
  }
}

/** The frame element hosting `doc` in its parent, when that parent is reachable. */
export function hostFrameOf(doc: Document): Element | null {
  try {
    return doc.defaultView?.frameElement ?? null
  } catch {
    return null
  }
}

/** Parent across shadow boundaries (not across frames). */
export function composedParent(node: Node): Element | null {
  if (node.parentElement) return node.parentElement
  const parent = node.parentNode
  if (parent && parent.nodeType === 11 && (parent as ShadowRoot).host) return (parent as ShadowRoot).host
  return null
}

/** Whether `node` is `ancestor` or inside it, crossing shadow roots and same-origin frames. */
export function composedContains(ancestor: Element, node: Node | null): boolean {
  let current: Node | null = node
  while (current) {
    if (current === ancestor) return true
    current = crossParent(current)
  }
  return false
}

/** Parent across shadow roots and out of same-origin frames into the frame element. */
export function crossParent(node: Node): Node | null {
  const parent = node.parentNode
  if (!parent) return node.nodeType === 9 ? hostFrameOf(node as Document) : null
  if (parent.nodeType === 11 && (parent as ShadowRoot).host) return (parent as ShadowRoot).host
  if (parent.nodeType === 9) return hostFrameOf(parent as Document)
  return parent
}

/** Offset of a (possibly nested, same-origin) frame document's viewport inside the top window's viewport. */
export function frameOffset(doc: Document): { x: number; y: number } {
  let x = 0
  let y = 0
  let frame = hostFrameOf(doc)
  while (frame) {
    const rect = frame.getBoundingClientRect()
    x += rect.left + frame.clientLeft
    y += rect.top + frame.clientTop
    frame = hostFrameOf(frame.ownerDocument)
  }
  return { x, y }
}

/** The focused element, looking inside open shadow roots and same-origin frames. */
export function deepActiveElement(doc: Document): Element | null {
  let active: Element | null = doc.activeElement
  for (;;) {
    if (!active) return null
    if (active.shadowRoot?.activeElement) {
      active = active.shadowRoot.activeElement
      continue
    }
    const inner = frameDocument(active)
    if (inner?.activeElement && inner.activeElement !== inner.body) {
      active = inner.activeElement
      continue
    }
    return active
  }
}

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, Math.max(0, max - 1)).trimEnd() + '…'
}

/** Marks Tandem's own elements in a page (the indicator): perception, masking and target lookup never see them. */
export const TANDEM_UI_ATTR = 'data-tandem-ui'

export const isTandemUi = (el: Element) => el.hasAttribute(TANDEM_UI_ATTR)

/** A change of Tandem's own elements (its bar added as the content script starts, its state set as a step runs). */
export function isOwnUiRecord(record: MutationRecord): boolean {
  const target = record.target as Element
  if (target.nodeType === 1 && target.closest?.(`[${TANDEM_UI_ATTR}]`)) return true
  if (record.type !== 'childList' || record.removedNodes.length + record.addedNodes.length === 0) return false
  return [...Array.from(record.addedNodes), ...Array.from(record.removedNodes)].every((n) => n.nodeType === 1 && (n as Element).hasAttribute(TANDEM_UI_ATTR))
}

const SKIP_SUBTREE = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title'])

/** Tags whose contents are never page content (scripts, styles, templates). */
export function isNonContent(el: Element): boolean {
  return SKIP_SUBTREE.has(el.localName)
}

export interface WalkVisitor {
  /** Return false to skip the element's subtree (its shadow root and frame included). */
  enter(el: Element): boolean
  leave?(el: Element): void
}

/**
 * Depth-first walk in document order through open shadow roots and same-origin frames.
 * A shadow root is walked before the host's light children, since slotted children render inside it.
 */
export function walkComposed(root: ParentNode, visitor: WalkVisitor): void {
  for (let el = root.firstElementChild; el; el = el.nextElementSibling) {
    if (isTandemUi(el) || !visitor.enter(el)) continue
    if (el.shadowRoot) walkComposed(el.shadowRoot, visitor)
    const inner = frameDocument(el)
    if (inner) walkComposed(inner, visitor)
    else walkComposed(el, visitor)
    visitor.leave?.(el)
  }
}

/** querySelectorAll across the document, its open shadow roots and same-origin frames, in walk order. */
export function deepQueryAll(doc: Document, selector: string, limit = Infinity): Element[] {
  const found: Element[] = []
  const roots: ParentNode[] = [doc]
  walkComposed(doc, {
    enter(el) {
      if (el.shadowRoot) roots.push(el.shadowRoot)
      const inner = frameDocument(el)
      if (inner) roots.push(inner)
      return !isNonContent(el)
    },
  })
  for (const root of roots) {
    for (const el of Array.from(root.querySelectorAll(selector))) {
      if (isTandemUi(el)) continue
      found.push(el)
      if (found.length >= limit) return found
    }
  }
  return found
}

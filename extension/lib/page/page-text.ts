import { collapseWhitespace } from './dom'
import { readableText, type TextSources } from './visible-text'

// The share of the snippet given to text above the viewport when the page is read from the middle.
const ABOVE_SHARE = 0.2
const ANCHOR_CHARS = 40

type Root = HTMLElement | ShadowRoot
// Never page text of their own, or never screen-reader-only: not worth a look.
const NOT_TEXT = new Set(['script', 'style', 'noscript', 'template', 'option', 'optgroup', 'select', 'textarea', 'datalist', 'title'])

/** Clipped to a pixel or less by its own box (the `sr-only` / `visually-hidden` patterns, antd's 0×0 list). */
const area = (el: Element): number => {
  // offsetWidth/Height read the laid-out box without building a DOMRect: the cheap first look at every element.
  if ('offsetWidth' in el) return (el as HTMLElement).offsetWidth * (el as HTMLElement).offsetHeight
  const rect = el.getBoundingClientRect()
  return rect.width * rect.height
}

function clipsToNothing(el: Element): boolean {
  const style = el.ownerDocument.defaultView?.getComputedStyle(el)
  // Not rendered at all: innerText already leaves it out.
  if (!style || style.display === 'none' || style.display === 'contents') return false
  return style.overflowX !== 'visible' || style.overflowY !== 'visible' || (style.clip !== 'auto' && style.clip !== '') || style.clipPath.startsWith('inset')
}

/**
 * Whether the text of `el` is screen-reader-only: `el` or the box holding it is clipped to a pixel or less by its
 * own box (the `sr-only` / `visually-hidden` patterns put it at `position:absolute`, so it is the offsetParent of
 * what is inside; antd's 0×0 list is the parent of its zero-width options).
 */
function createSrOnlyCheck(): (el: Element) => boolean {
  const verdicts = new Map<Element, boolean>()
  const check = (el: Element | null, depth: number): boolean => {
    if (!el || depth > 3) return false
    let verdict = verdicts.get(el)
    if (verdict !== undefined) return verdict
    if (area(el) > 1) {
      const holder = (el as HTMLElement).offsetParent
      verdict = !!holder && holder !== el.ownerDocument.body && check(holder, depth + 1)
    } else {
      verdict = clipsToNothing(el) || check(el.parentElement, depth + 1)
    }
    verdicts.set(el, verdict)
    return verdict
  }
  return (el) => check(el, 0)
}

/** The outermost element of the screen-reader-only box around `el`, whose text is taken out once. */
function srOnlyBox(el: Element): Element {
  let box = el
  for (let node = el.parentElement, depth = 0; node && depth < 4; node = node.parentElement, depth++) {
    if (area(node) <= 1 && clipsToNothing(node)) box = node
  }
  return box
}

interface Scan {
  /** Text of the screen-reader-only boxes, in page order, with where each falls in the page (0–1). */
  hidden: { text: string; at: number }[]
  /** The first words on screen, and how far into the page text (0–1) they come. */
  anchor?: { text: string; at: number }
}

/**
 * Two passes over the text nodes: the first finds the first words on screen; the second looks for
 * screen-reader-only boxes, only around the part of the page the snippet can show (all of it on a short page),
 * so a long page costs no more than a short one.
 */
function scan(roots: Root[], win: Window, limit: number): Scan {
  const nodes: Text[] = []
  const starts: number[] = []
  let chars = 0
  let anchorChars = -1
  let anchorText = ''
  for (const root of roots) {
    const doc = root.ownerDocument ?? (root as unknown as Document)
    const walker = doc.createTreeWalker(root, 4)
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      const value = node.nodeValue ?? ''
      const parent = node.parentElement
      if (!parent || NOT_TEXT.has(parent.localName) || !value.trim()) continue
      nodes.push(node)
      starts.push(chars)
      if (anchorChars < 0 && doc === win.document) {
        const rect = parent.getBoundingClientRect()
        if (rect.bottom > 0 && rect.top < win.innerHeight && rect.width * rect.height > 1) {
          anchorChars = chars
          anchorText = collapseWhitespace(value).slice(0, ANCHOR_CHARS)
        }
      }
      chars += value.length
    }
  }
  const out: Scan = { hidden: [] }
  if (anchorChars > 0 && chars > 0 && anchorText) out.anchor = { text: anchorText, at: anchorChars / chars }
  // Source text runs longer than rendered text (indentation, hidden parts): a generous window around the anchor.
  const from = chars <= limit * 2 ? 0 : Math.max(0, anchorChars - limit * 2)
  const to = chars <= limit * 2 ? chars : Math.max(anchorChars, 0) + limit * 4
  const srOnly = createSrOnlyCheck()
  const seen = new Set<Element>()
  for (let i = 0; i < nodes.length; i++) {
    if (starts[i]! < from) continue
    if (starts[i]! > to) break
    const parent = nodes[i]!.parentElement!
    if (!srOnly(parent)) continue
    const box = srOnlyBox(parent)
    if (seen.has(box)) continue
    seen.add(box)
    const text = collapseWhitespace((box as HTMLElement).innerText ?? box.textContent ?? '')
    if (text) out.hidden.push({ text, at: starts[i]! / chars })
  }
  return out
}

/** `text` without each of `parts`, each taken out at its first match from about where it falls in the page. */
function without(text: string, parts: Scan['hidden']): string {
  let out = ''
  let from = 0
  for (const part of parts) {
    const near = Math.max(from, Math.floor(part.at * text.length) - 200)
    let at = text.indexOf(part.text, near)
    if (at < 0) at = text.indexOf(part.text, from)
    if (at < 0) continue
    out += text.slice(from, at)
    from = at + part.text.length
  }
  return collapseWhitespace(out + text.slice(from))
}

/** Where in `text` the words on screen start: the occurrence of the anchor nearest where it falls in the page. */
function anchorOffset(text: string, anchor: Scan['anchor']): number {
  if (!anchor) return 0
  const expected = anchor.at * text.length
  let best = -1
  for (let at = text.indexOf(anchor.text); at >= 0; at = text.indexOf(anchor.text, at + 1)) {
    if (best < 0 || Math.abs(at - expected) < Math.abs(best - expected)) best = at
  }
  return best < 0 ? Math.round(expected) : best
}

/**
 * The page text the model reads: rendered text as innerText lays it out, without screen-reader-only text (a person
 * never sees it; it still names its control), and, when it is longer than `limit`, the part on screen and around
 * it rather than the page's top.
 */
export function pageText(sources: TextSources, win: Window, limit: number, redact: (text: string) => string): string {
  const roots: Root[] = [...sources.docs.map((d) => d.body).filter((b): b is HTMLElement => !!b), ...sources.shadowRoots]
  const found = scan(roots, win, limit)
  const full = redact(without(readableText(sources), found.hidden))
  if (full.length <= limit) return full
  const start = Math.max(0, Math.min(anchorOffset(full, found.anchor) - Math.round(limit * ABOVE_SHARE), full.length - limit + 1))
  if (start === 0) return full.slice(0, limit - 1) + '…'
  const room = limit - 2
  const end = start + room
  return '…' + full.slice(start, end) + (end < full.length ? '…' : '')
}

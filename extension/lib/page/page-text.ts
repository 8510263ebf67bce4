import { collapseWhitespace } from './dom'
import { readableText, type TextSources } from './visible-text'

// The share of the snippet given to text above the viewport when the page is read from the middle.
const ABOVE_SHARE = 0.2
const ANCHOR_CHARS = 40

type Root = HTMLElement | ShadowRoot

/** Clipped to a pixel or less by its own box (the `sr-only` / `visually-hidden` patterns, antd's 0×0 list). */
function clippedToNothing(el: Element): boolean {
  const rect = el.getBoundingClientRect()
  if (rect.width * rect.height > 1) return false
  const style = el.ownerDocument.defaultView?.getComputedStyle(el)
  if (!style) return false
  return style.overflowX !== 'visible' || style.overflowY !== 'visible' || (style.clip !== 'auto' && style.clip !== '') || style.clipPath.startsWith('inset')
}

interface Scan {
  /** Text of the screen-reader-only boxes, in page order. */
  hidden: string[]
  /** The first words on screen, and how far into the page text (0–1) they come. */
  anchor?: { text: string; at: number }
}

/**
 * One pass over the text nodes: which sit in a screen-reader-only box (checked on the text's element and its
 * parent, which is where those patterns put it), and which are the first on screen.
 */
function scan(roots: Root[], win: Window): Scan {
  const verdicts = new Map<Element, boolean>()
  const isHidden = (el: Element | null): boolean => {
    if (!el) return false
    let verdict = verdicts.get(el)
    if (verdict === undefined) {
      verdict = clippedToNothing(el)
      verdicts.set(el, verdict)
    }
    return verdict
  }
  const out: Scan = { hidden: [] }
  const seen = new Set<Element>()
  let chars = 0
  let anchorChars = -1
  let anchorText = ''
  for (const root of roots) {
    const doc = root.ownerDocument ?? (root as unknown as Document)
    const walker = doc.createTreeWalker(root, 4)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const value = node.nodeValue ?? ''
      if (!value.trim()) continue
      const parent = node.parentElement
      if (!parent || parent.localName === 'script' || parent.localName === 'style' || parent.localName === 'noscript' || parent.localName === 'template') continue
      const box = isHidden(parent) ? parent : isHidden(parent.parentElement) ? parent.parentElement! : null
      if (box) {
        if (!seen.has(box)) {
          seen.add(box)
          const text = collapseWhitespace((box as HTMLElement).innerText ?? box.textContent ?? '')
          if (text) out.hidden.push(text)
        }
        continue
      }
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
  if (anchorChars > 0 && chars > 0 && anchorText) out.anchor = { text: anchorText, at: anchorChars / chars }
  return out
}

/** `text` without each of `parts`, taken out in order (the first match at or after the previous one). */
function without(text: string, parts: string[]): string {
  let out = ''
  let from = 0
  for (const part of parts) {
    const at = text.indexOf(part, from)
    if (at < 0) continue
    out += text.slice(from, at)
    from = at + part.length
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
  const found = scan(roots, win)
  const full = redact(without(readableText(sources), found.hidden))
  if (full.length <= limit) return full
  const start = Math.max(0, Math.min(anchorOffset(full, found.anchor) - Math.round(limit * ABOVE_SHARE), full.length - limit + 1))
  if (start === 0) return full.slice(0, limit - 1) + '…'
  const room = limit - 2
  const end = start + room
  return '…' + full.slice(start, end) + (end < full.length ? '…' : '')
}

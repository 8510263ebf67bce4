import { hostFrameOf } from './dom'
import { roleOf, visibleLabel } from './semantics'

/** cyrb53: a fast 53-bit string hash, plenty for telling a few thousand elements apart. */
export function hash53(text: string): string {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)
}

/** Per-observation memo: one pass over each parent's children instead of counting siblings per element. */
export interface PathCache {
  segments: Map<Element, string>
  paths: Map<Element, string>
}

export function createPathCache(): PathCache {
  return { segments: new Map(), paths: new Map() }
}

const STABLE_ID = /^[A-Za-z][\w-]{0,63}$/

function fillSegments(parent: ParentNode, cache: PathCache): void {
  const counts = new Map<string, number>()
  for (let child = parent.firstElementChild; child; child = child.nextElementSibling) {
    const n = (counts.get(child.localName) ?? 0) + 1
    counts.set(child.localName, n)
    cache.segments.set(child, `${child.localName}:${n}`)
  }
}

function segmentOf(el: Element, cache?: PathCache): string {
  const cached = cache?.segments.get(el)
  if (cached) return cached
  const parent = el.parentNode
  if (cache && parent) {
    fillSegments(parent, cache)
    return cache.segments.get(el)!
  }
  let n = 1
  for (let sib = el.previousElementSibling; sib; sib = sib.previousElementSibling) if (sib.localName === el.localName) n++
  return `${el.localName}:${n}`
}

/**
 * Where the element sits: tag:nth-of-type steps from the nearest ancestor with a plain id, through shadow roots
 * (`^`) and same-origin frames (`|`). Ids anchor the path so a banner inserted above does not shift everything.
 */
export function domPath(el: Element, cache?: PathCache): string {
  const cached = cache?.paths.get(el)
  if (cached !== undefined) return cached
  let path: string
  if (el.id && STABLE_ID.test(el.id)) path = `#${el.id}`
  else {
    const segment = segmentOf(el, cache)
    const parent = el.parentNode
    if (!parent) path = segment
    else if (parent.nodeType === 1) path = `${domPath(parent as Element, cache)}/${segment}`
    else if (parent.nodeType === 11 && (parent as ShadowRoot).host) path = `${domPath((parent as ShadowRoot).host, cache)}^${segment}`
    else if (parent.nodeType === 9) {
      const frame = hostFrameOf(parent as Document)
      path = frame ? `${domPath(frame, cache)}|${segment}` : segment
    } else path = segment
  }
  cache?.paths.set(el, path)
  return path
}

const KEY_ATTRIBUTES = ['type', 'name', 'href', 'aria-label', 'placeholder', 'title', 'alt']

/**
 * Short stable digest of what identifies an element: tag, role, text, key attributes and DOM path.
 * `label` is the element's visibleLabel (passed in when already computed). Values and states (typed text, checked) are left out: typing into a field must not make it a new element.
 */
export function fingerprintOf(el: Element, label: string = visibleLabel(el, 80), cache?: PathCache): string {
  // An editor's text is its value: typing into it must not turn it into another element.
  const text = (el as HTMLElement).isContentEditable ? '' : label
  let key = `${el.localName}|${roleOf(el) ?? ''}|${text}`
  for (const name of KEY_ATTRIBUTES) {
    const value = el.getAttribute(name)
    if (value) key += `|${name}=${value.slice(0, 200)}`
  }
  return hash53(`${key}|${domPath(el, cache)}`)
}

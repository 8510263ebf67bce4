/**
 * What the content script keeps between an observation and the actions chosen from it: which element each
 * index meant, and the fingerprints seen (to mark new elements next time). Elements are held through WeakRef
 * so a page that drops them can still collect them; a collected element simply reads as stale.
 */
export interface PageMemory {
  url: string
  observedAt: number
  entries: Map<number, { ref: WeakRef<Element>; fingerprint: string }>
  fingerprints: Set<string>
}

export function createPageMemory(url: string, observedAt = Date.now()): PageMemory {
  return { url, observedAt, entries: new Map(), fingerprints: new Set() }
}

export function rememberElement(memory: PageMemory, index: number, el: Element, fingerprint: string): void {
  memory.entries.set(index, { ref: new WeakRef(el), fingerprint })
  memory.fingerprints.add(fingerprint)
}

export type Recalled =
  | { state: 'unknown' }
  | { state: 'gone'; fingerprint: string }
  | { state: 'found'; element: Element; fingerprint: string }

/** The element an index meant when it was observed: unknown index, collected element, or the element. */
export function recallElement(memory: PageMemory, index: number): Recalled {
  const entry = memory.entries.get(index)
  if (!entry) return { state: 'unknown' }
  const element = entry.ref.deref()
  return element ? { state: 'found', element, fingerprint: entry.fingerprint } : { state: 'gone', fingerprint: entry.fingerprint }
}

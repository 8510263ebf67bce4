import type { ElementInfo } from '../../../protocol/observation'
import { withTextMemo } from './accname'
import { describeElement, formatLine } from './describe'
import type { FormInfo } from './form-context'
import { collectInteractive } from './collect'
import { frameOffset } from './dom'
import { createPathCache, fingerprintOf } from './fingerprint'
import { createPageMemory, rememberElement } from './memory'
import { createRedactor } from './sensitive'
import type { ObserveOptions, PageSnapshot } from './types'
import { pageText } from './page-text'
import { dropProxyHolders } from './proxy'
import { visibleProxy } from './visibility'

interface Candidate {
  el: Element
  /** What a person sees of it: the element, its <label>, or the box drawn for a transparent control. */
  shown: Element
  order: number
  distance: number
}

/** Pixels between a rect and the top viewport (0 when they overlap). */
function distanceToViewport(rect: DOMRect, offset: { x: number; y: number }, width: number, height: number): number {
  const top = rect.top + offset.y
  const bottom = rect.bottom + offset.y
  const left = rect.left + offset.x
  const right = rect.right + offset.x
  const dy = bottom < 0 ? -bottom : top > height ? top - height : 0
  const dx = right < 0 ? -right : left > width ? left - width : 0
  return dy + dx
}

/**
 * Builds the indexed element tree the model reads (DESIGN: "What the LLM sees"), the matching element list,
 * the readable text, and the memory that maps each index back to its element for the next action.
 * Reads only (no writes between layout reads), so the page lays out once.
 */
export function observePage(win: Window, opts: ObserveOptions = {}): PageSnapshot {
  return withTextMemo(() => observe(win, opts))
}

function observe(win: Window, opts: ObserveOptions): PageSnapshot {
  const started = performance.now()
  const doc = win.document
  const maxElements = opts.maxElements ?? 500
  const redact = createRedactor(opts.redactValues)
  const { elements: found, text: sources, marks } = collectInteractive(doc)

  const offsets = new Map<Document, { x: number; y: number; scrollX: number; scrollY: number }>()
  const width = win.innerWidth
  const height = win.innerHeight
  const candidates: Candidate[] = []
  for (let i = 0; i < found.length; i++) {
    const el = found[i]!
    const visible = visibleProxy(el)
    if (!visible) continue
    const owner = el.ownerDocument
    let offset = offsets.get(owner)
    if (!offset) {
      const view = owner.defaultView ?? win
      offset = { ...(owner === doc ? { x: 0, y: 0 } : frameOffset(owner)), scrollX: view.scrollX, scrollY: view.scrollY }
      offsets.set(owner, offset)
    }
    const rect = visible.rect
    // Pushed off the start of the page (the old -9999px trick): no scrolling ever brings it into view.
    if (rect.right + offset.scrollX <= 0 || rect.bottom + offset.scrollY <= 0) continue
    candidates.push({ el, shown: visible.shown, order: i, distance: distanceToViewport(rect, offset, width, height) })
  }
  dropProxyHolders(candidates)

  let kept = candidates
  if (candidates.length > maxElements) {
    kept = [...candidates].sort((a, b) => a.distance - b.distance || a.order - b.order).slice(0, maxElements)
    kept.sort((a, b) => a.order - b.order)
  }

  const memory = createPageMemory(win.location.href)
  const cache = createPathCache()
  const forms = new Map<HTMLFormElement, FormInfo>()
  const lines: string[] = []
  const elements: ElementInfo[] = []
  kept.forEach(({ el, shown }, index) => {
    const described = describeElement(el, redact, forms, shown, marks.get(el))
    const fingerprint = fingerprintOf(el, described.label, cache)
    const isNew = !!opts.previous && !opts.previous.fingerprints.has(fingerprint)
    rememberElement(memory, index, el, fingerprint)
    lines.push(formatLine(index, described, isNew))
    const info: ElementInfo = { index, tag: described.tag, fingerprint }
    if (described.role) info.role = described.role
    if (described.text) info.text = described.text
    if (Object.keys(described.attributes).length) info.attributes = described.attributes
    if (isNew) info.isNew = true
    if (described.form) info.form = described.form
    if (described.context) info.context = described.context
    elements.push(info)
  })

  const textLimit = opts.textLimit ?? 4000
  const scroller = doc.scrollingElement ?? doc.documentElement
  const y = Math.round(win.scrollY)
  return {
    url: win.location.href,
    title: redact(doc.title),
    elementTree: lines.join('\n'),
    elements,
    visibleTextSnippet: pageText(sources, win, textLimit, redact),
    scroll: { y, pixelsAbove: y, pixelsBelow: Math.max(0, Math.round(scroller.scrollHeight - y - win.innerHeight)) },
    memory,
    stats: { candidates: candidates.length, indexed: kept.length, ms: Math.round((performance.now() - started) * 100) / 100 },
  }
}

import { frameDocument, isNonContent, walkComposed } from './dom'
import { dropZones } from './drag'
import { MOVABLE } from './grab'
import { hoverBudget, hoverTargets } from './hover'
import { createInteractiveDetector, type Mark } from './interactive'
import { askListenerCensus } from './listening'
import { isSemanticInteractive } from './semantics'
import type { TextSources } from './visible-text'

const SVG_NS = 'http://www.w3.org/2000/svg'

/**
 * A wrapper clickable only by a handler or its pointer (a calendar's `td` around its day's link, an `li onclick`
 * around its one link) that holds exactly one control and no words but that control's: the control stands for it.
 */
function standsFor(wrapper: Element, elements: Element[], at: number): boolean {
  if (elements.length !== at + 2) return false
  const inner = elements[at + 1]!
  return isSemanticInteractive(inner) && wrapper.textContent?.trim() === inner.textContent?.trim()
}

/**
 * Every interactive element in document order (shadow roots and same-origin frames included), where text lives,
 * and why some are listed beyond being clickable (hover, drag, drop).
 */
export function collectInteractive(doc: Document): { elements: Element[]; text: TextSources; marks: Map<Element, Mark> } {
  const elements: Element[] = []
  const text: TextSources = { docs: [doc], shadowRoots: [] }
  const marks = new Map<Element, Mark>()
  const budget = hoverBudget()
  const markRoot = (root: Document | ShadowRoot) => {
    for (const el of hoverTargets(root, budget)) if (!marks.has(el)) marks.set(el, 'hover')
    for (const el of Array.from(root.querySelectorAll(MOVABLE))) if (!marks.has(el)) marks.set(el, 'draggable')
  }
  markRoot(doc)
  for (const el of dropZones(doc)) marks.set(el, 'dropzone')
  const listening = askListenerCensus(doc)
  const detector = createInteractiveDetector(marks, listening)
  // Where each open element's entry sits in `elements` (-1 when it is not one), to drop a focus-only container
  // (a calendar panel with tabindex, a composite grid) once its days or items turn out to be listed.
  const entries: number[] = []
  const leave = () => {
    const at = entries.pop()!
    const left = detector.leave()
    if (at >= 0 && ((left.focusOnly && elements.length > at + 1) || (left.weak && standsFor(elements[at]!, elements, at)))) elements.splice(at, 1)
  }
  walkComposed(doc, {
    enter(el) {
      if (isNonContent(el)) return false
      // Inside an <svg> only the <svg> itself can be a control worth naming.
      if (el.namespaceURI === SVG_NS && el.localName !== 'svg') return false
      const inner = frameDocument(el)
      if (inner) {
        text.docs.push(inner)
        markRoot(inner)
        for (const [el, kind] of askListenerCensus(inner)) listening.set(el, kind)
      }
      if (el.shadowRoot) {
        text.shadowRoots.push(el.shadowRoot)
        markRoot(el.shadowRoot)
      }
      entries.push(detector.enter(el) ? elements.push(el) - 1 : -1)
      if (el.localName === 'svg') {
        leave()
        return false
      }
      return true
    },
    leave,
  })
  return { elements, text, marks }
}


import { frameDocument, isNonContent, walkComposed } from './dom'
import { createInteractiveDetector } from './interactive'
import type { TextSources } from './visible-text'

const SVG_NS = 'http://www.w3.org/2000/svg'

/** Every interactive element in document order (shadow roots and same-origin frames included), and where text lives. */
export function collectInteractive(doc: Document): { elements: Element[]; text: TextSources } {
  const elements: Element[] = []
  const text: TextSources = { docs: [doc], shadowRoots: [] }
  const detector = createInteractiveDetector()
  walkComposed(doc, {
    enter(el) {
      if (isNonContent(el)) return false
      // Inside an <svg> only the <svg> itself can be a control worth naming.
      if (el.namespaceURI === SVG_NS && el.localName !== 'svg') return false
      const inner = frameDocument(el)
      if (inner) text.docs.push(inner)
      if (el.shadowRoot) text.shadowRoots.push(el.shadowRoot)
      if (detector.enter(el)) elements.push(el)
      if (el.localName === 'svg') {
        detector.leave()
        return false
      }
      return true
    },
    leave() {
      detector.leave()
    },
  })
  return { elements, text }
}


import { frameDocument, walkComposed } from './dom'

/** Where rendered text lives: documents (frames included) and open shadow roots, whose text body.innerText skips. */
export interface TextSources {
  docs: Document[]
  shadowRoots: ShadowRoot[]
}

export function textSources(doc: Document): TextSources {
  const sources: TextSources = { docs: [doc], shadowRoots: [] }
  walkComposed(doc, {
    enter(el) {
      const inner = frameDocument(el)
      if (inner) sources.docs.push(inner)
      if (el.shadowRoot) sources.shadowRoots.push(el.shadowRoot)
      return true
    },
  })
  return sources
}

function tidy(text: string, keepLines: boolean): string {
  if (!keepLines) return text.replace(/\s+/g, ' ').trim()
  return text
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/**
 * Rendered text of the page as innerText lays it out (no scripts, styles or hidden parts; field values are not
 * text, so passwords never appear). Frames and shadow-root text follow the document text.
 * `keepLines` keeps line breaks, for extraction.
 */
export function readableText(sources: TextSources, keepLines = false): string {
  const parts: string[] = []
  for (const doc of sources.docs) if (doc.body) parts.push(tidy(doc.body.innerText, keepLines))
  for (const root of sources.shadowRoots) {
    // innerText of the root's children: slotted light-DOM text is already in the document's innerText.
    for (let el = root.firstElementChild; el; el = el.nextElementSibling) {
      const text = (el as HTMLElement).innerText
      if (text) parts.push(tidy(text, keepLines))
    }
  }
  return parts.filter(Boolean).join(keepLines ? '\n\n' : ' ')
}

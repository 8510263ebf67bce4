import { findSensitive, type RedactSettings } from '../../../protocol/sensitive-text'
import { deepQueryAll } from './dom'
import { isSecretField } from './sensitive'
import { textSources } from './visible-text'
import { isRendered } from './visibility'

function overlay(doc: Document, rect: DOMRect): HTMLElement {
  const box = doc.createElement('div')
  box.setAttribute('data-tandem-mask', '')
  const style: Record<string, string> = {
    position: 'fixed', left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px`,
    margin: '0', padding: '0', border: '0', inset: 'auto', background: '#000', opacity: '1', 'z-index': '2147483647',
    'pointer-events': 'none', display: 'block', overflow: 'hidden', 'box-sizing': 'border-box', transform: 'none',
  }
  for (const [key, value] of Object.entries(style)) box.style.setProperty(key, value, 'important')
  box.style.setProperty('left', `${rect.left}px`, 'important')
  box.style.setProperty('top', `${rect.top}px`, 'important')
  doc.documentElement.appendChild(box)
  // The top layer paints above modals and popovers that a z-index alone cannot beat.
  if (typeof box.showPopover === 'function') {
    box.popover = 'manual'
    try {
      box.showPopover()
    } catch {
      // not connected or popovers unsupported: z-index still applies
    }
  }
  return box
}

type Ranges = (text: string) => [number, number][]

/** Where each of `secrets` occurs in `text`, and every card number (and email and phone, when asked). */
function rangesOf(secrets: string[], redact: RedactSettings): Ranges {
  return (text) => {
    const ranges: [number, number][] = findSensitive(text, redact).map((s) => [s.start, s.end])
    for (const secret of secrets) {
      for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + secret.length)) ranges.push([at, at + secret.length])
    }
    return ranges
  }
}

function textRects(root: Node, ranges: Ranges): DOMRect[] {
  const rects: DOMRect[] = []
  const doc = root.ownerDocument ?? (root as Document)
  const walker = doc.createTreeWalker(root, 4)
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const [start, end] of ranges(node.nodeValue ?? '')) {
      const range = doc.createRange()
      range.setStart(node, start)
      range.setEnd(node, end)
      rects.push(...Array.from(range.getClientRects()))
    }
  }
  return rects
}

/**
 * Covers password, card and one-time-code fields, card numbers, the emails and phone numbers `redact` asks for,
 * and any field or text showing one of `secretValues`, with opaque boxes before a screenshot. Returns the
 * function that removes them (call it right after the capture).
 */
export function maskSensitiveFields(win: Window, opts: { secretValues?: string[]; redact?: RedactSettings } = {}): () => void {
  const secrets = (opts.secretValues ?? []).filter((s) => s.length > 0)
  const ranges = rangesOf(secrets, opts.redact ?? {})
  const boxes: HTMLElement[] = []
  const fields = deepQueryAll(win.document, 'input, textarea, [contenteditable]:not([contenteditable=false])')
  for (const field of fields) {
    const value = (field as HTMLInputElement).value ?? ''
    const secret = isSecretField(field) || (typeof value === 'string' && value.length > 0 && ranges(value).length > 0)
    if (!secret) continue
    const rect = field.getBoundingClientRect()
    if (!isRendered(field, rect)) continue
    boxes.push(overlay(field.ownerDocument, rect))
  }
  const sources = textSources(win.document)
  for (const root of [...sources.docs.map((d) => d.body).filter((b): b is HTMLElement => !!b), ...sources.shadowRoots]) {
    const doc = root.ownerDocument
    for (const rect of textRects(root, ranges)) if (rect.width * rect.height > 0) boxes.push(overlay(doc, rect))
  }
  return () => {
    for (const box of boxes) box.remove()
  }
}

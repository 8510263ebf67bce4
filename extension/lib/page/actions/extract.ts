import { fail } from '../errors'
import { readableText, textSources } from '../visible-text'

// Seed 000: a readable text over 2 MB is refused rather than shipped.
const TOO_LARGE = 2 * 1024 * 1024

export interface Extracted {
  url: string
  title: string
  text: string
  truncated: boolean
  instruction?: string
}

/** The page's readable text, lines kept; the model interprets it server-side against the instruction. */
export function extractText(win: Window, redact: (text: string) => string, limit: number, instruction?: string): Extracted {
  const raw = readableText(textSources(win.document), true)
  if (raw.length > TOO_LARGE) fail('READABILITY_TOO_LARGE', `the page text is ${Math.round(raw.length / 1024)} KB, over the 2 MB limit`)
  const text = redact(raw)
  const truncated = text.length > limit
  return {
    url: win.location.href,
    title: redact(win.document.title),
    text: truncated ? text.slice(0, limit) : text,
    truncated,
    ...(instruction ? { instruction } : {}),
  }
}

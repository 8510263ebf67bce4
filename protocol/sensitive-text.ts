import { z } from 'zod'

/**
 * Which kinds of personal data the server hides besides passwords, secrets and card numbers (always hidden).
 * The server sends it with every action (Action.redact) so the extension masks the same things in screenshots.
 */
export const RedactSettings = z.object({
  emails: z.boolean().optional(),
  phones: z.boolean().optional(),
})
export type RedactSettings = z.infer<typeof RedactSettings>

export type SensitiveKind = 'card' | 'email' | 'phone'

/** Where a sensitive value sits in a text: [start, end). */
export interface SensitiveSpan {
  kind: SensitiveKind
  start: number
  end: number
}

// Digit groups separated by one space or hyphen, bounded by anything but a letter, digit or _: a run inside
// a hash, an id or a longer number is not a card, and a false match there would corrupt a reference.
const DIGIT_RUN = /(?<![0-9A-Za-z_])\d+(?:[ \u00a0-]\d+)*(?![0-9A-Za-z_])/g
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![A-Za-z0-9-])/g
const PHONES = [
  // International: +86 138 0013 8000, +1 (415) 555-0134, 0044 20 7946 0958.
  /(?<![0-9A-Za-z+])(?:\+|00)\d{1,3}(?:[ .\u00a0-]?\(?\d{1,4}\)?){2,5}(?![0-9A-Za-z])/g,
  // Chinese mobiles: 13800138000, 138 0013 8000, 138-0013-8000.
  /(?<![0-9A-Za-z])1[3-9]\d(?:[ -]?\d{4}){2}(?![0-9A-Za-z])/g,
  // North American: (415) 555-0134, 415-555-0134, 415.555.0134.
  /(?<![0-9A-Za-z(])(?:\(\d{3}\)[ ]?|\d{3}[.-])\d{3}[.-]\d{4}(?![0-9A-Za-z])/g,
  // Chinese landlines: 010-12345678, 0755-1234567.
  /(?<![0-9A-Za-z])0\d{2,3}-\d{7,8}(?![0-9A-Za-z])/g,
]

/** The Luhn check every card number passes. */
export function luhnValid(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

/**
 * Whether digit groups are laid out as a card number is printed: one run of 13–19 digits, or groups of 4 (the last
 * may be shorter, Amex and Diners print 4-6-5 and 4-6-4). A calendar's or a table's run of small numbers
 * ("1 2 3 … 31") can pass the Luhn check too, but is never printed like this.
 */
function cardShaped(groups: { digits: string }[]): boolean {
  if (groups.length === 1) return true
  const sizes = groups.map((g) => g.digits.length)
  if (sizes[0] !== 4) return false
  if (sizes.length === 3 && sizes[1] === 6 && (sizes[2] === 5 || sizes[2] === 4)) return true
  return sizes.every((n, k) => n === 4 || (k === sizes.length - 1 && n >= 1 && n <= 4))
}

function cardSpans(text: string): SensitiveSpan[] {
  const spans: SensitiveSpan[] = []
  for (const run of text.matchAll(DIGIT_RUN)) {
    // The groups of the run, so a card beside another number ("Qty 2 4539 …") is still found inside it.
    const groups = [...run[0].matchAll(/\d+/g)].map((g) => ({ start: run.index + g.index, end: run.index + g.index + g[0].length, digits: g[0] }))
    for (let i = 0; i < groups.length; i++) {
      let digits = ''
      for (let j = i; j < groups.length; j++) {
        digits += groups[j]!.digits
        if (digits.length > 19) break
        if (digits.length >= 13 && cardShaped(groups.slice(i, j + 1)) && luhnValid(digits)) {
          spans.push({ kind: 'card', start: groups[i]!.start, end: groups[j]!.end })
          i = j
          break
        }
      }
    }
  }
  return spans
}

function phoneSpans(text: string): SensitiveSpan[] {
  const spans: SensitiveSpan[] = []
  for (const pattern of PHONES) {
    for (const m of text.matchAll(pattern)) {
      const digits = m[0].replace(/\D/g, '').length
      if (digits >= 7 && digits <= 15) spans.push({ kind: 'phone', start: m.index, end: m.index + m[0].length })
    }
  }
  return spans
}

/** Card numbers (always), and emails and phone numbers when asked, as non-overlapping spans in text order. */
export function findSensitive(text: string, settings: RedactSettings = {}): SensitiveSpan[] {
  if (!/\d|@|%40/.test(text)) return []
  const found = [
    ...cardSpans(text),
    ...(settings.emails ? [...text.matchAll(EMAIL)].map((m) => ({ kind: 'email' as const, start: m.index, end: m.index + m[0].length })) : []),
    ...(settings.phones ? phoneSpans(text) : []),
  ].sort((a, b) => a.start - b.start || b.end - a.end)
  const spans: SensitiveSpan[] = []
  for (const span of found) {
    const last = spans.at(-1)
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end)
    else spans.push({ ...span })
  }
  return spans
}

function replaceSpans(text: string, spans: SensitiveSpan[], mask: string): string {
  let out = ''
  let at = 0
  for (const span of spans) {
    out += text.slice(at, span.start) + mask
    at = span.end
  }
  return out + text.slice(at)
}

/**
 * `text` with every card number (and email and phone number, when asked) replaced by `mask`, in plain text and
 * inside URL-encoded words (a query string the page put into its URL).
 */
export function redactSensitiveText(text: string, settings: RedactSettings = {}, mask = '••••'): string {
  const spans = findSensitive(text, settings)
  const out = spans.length ? replaceSpans(text, spans, mask) : text
  if (!/%[0-9A-Fa-f]{2}|\+/.test(out)) return out
  return out.replace(/[^\s"'<>]*(?:%[0-9A-Fa-f]{2}|\+)[^\s"'<>]*/g, (word) => {
    let decoded: string
    try {
      decoded = decodeURIComponent(word.replace(/\+/g, ' '))
    } catch {
      return word
    }
    if (decoded === word) return word
    const inside = findSensitive(decoded, settings)
    return inside.length ? encodeURI(replaceSpans(decoded, inside, mask)) : word
  })
}

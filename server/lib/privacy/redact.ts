import { redactSensitiveText, type RedactSettings } from '#protocol'

export const REDACTED = '••••'
/** The shortest value scrubbed by its own text: shorter ones would blank out ordinary words, and protect nothing anyway. */
export const MIN_REDACT_LENGTH = 3

/**
 * Replaces every occurrence of each sensitive value, every card number, and the emails and phone numbers
 * `settings` asks for, in every string inside `value` (a JSON-like tree).
 */
export function redactValues<T>(value: T, sensitive: readonly string[], settings: RedactSettings = {}): T {
  const needles = sensitive.filter((s) => s.length >= MIN_REDACT_LENGTH).sort((a, b) => b.length - a.length)
  const scrub = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const valuesGone = needles.reduce((s, n) => (s.includes(n) ? s.split(n).join(REDACTED) : s), v)
      return redactSensitiveText(valuesGone, settings, REDACTED)
    }
    if (Array.isArray(v)) return v.map(scrub)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrub(x)]))
    return v
  }
  return scrub(value) as T
}

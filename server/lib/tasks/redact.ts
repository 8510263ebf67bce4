export const REDACTED = '••••'
// Shorter values would blank out ordinary words; a credential this short protects nothing anyway.
const MIN_LENGTH = 3

/** Replaces every occurrence of each sensitive value in every string inside `value` (a JSON-like tree). */
export function redactValues<T>(value: T, sensitive: readonly string[]): T {
  const needles = sensitive.filter((s) => s.length >= MIN_LENGTH).sort((a, b) => b.length - a.length)
  if (!needles.length) return value
  const scrub = (v: unknown): unknown => {
    if (typeof v === 'string') return needles.reduce((s, n) => (s.includes(n) ? s.split(n).join(REDACTED) : s), v)
    if (Array.isArray(v)) return v.map(scrub)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrub(x)]))
    return v
  }
  return scrub(value) as T
}

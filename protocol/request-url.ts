import { findKeyword } from './risk-rules'
import { redactSensitiveText, type RedactSettings } from './sensitive-text'

/** What stands in for a value the person is not shown. */
export const MASK = '••••'

/** Percent-decoded, or as it was when it does not decode (a stray "%" is common in hand-built URLs). */
export function decode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** The words of a name or path segment, split at separators and camelCase: "placeOrder.do" → "place order do". */
export function wordsOf(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[/?&=\-_.+~,;:!*'()[\]{}@$|"<>^\s]+/g, ' ')
    .trim()
    .toLowerCase()
}

// More than four words in one segment is a title ("how-to-delete-your-account"), which says what a page is
// about, not what a request does.
const isTitle = (segment: string) => segment.split(/[-_+\s]+/).filter(Boolean).length > 4

/** The words of a URL path that can name an action, titles left out. */
export function pathWords(path: string): string {
  return path
    .split('/')
    .map(decode)
    .filter((segment) => segment && !isTitle(segment))
    .map(wordsOf)
    .join(' ')
}

/** The last segment of a path, decoded and lowercased, with and without a file extension ("hm.gif" → "hm"). */
export function lastSegment(path: string): { name: string; bare: string } | undefined {
  const name = decode(path.split('/').filter(Boolean).at(-1) ?? '').toLowerCase()
  return name ? { name, bare: name.replace(/\.[a-z0-9]{1,5}$/, '') } : undefined
}

/** Words that make a URL a read when they begin or end its last segment. */
export interface UrlReadWords {
  urlReadVerbs: ReadonlySet<string>
  urlReadNouns: ReadonlySet<string>
}

/**
 * The risky word a URL carries where a server reads its action: in a path segment, as a whole query parameter
 * name (?delete=1, ?logout), or as the value of an action parameter (?action=delete, ?a=del). A word inside a
 * longer name (?payType=1, ?delFlag=0) or in any other value (/search?q=delete+account) says nothing, and a path
 * whose last segment asks rather than acts (/pay/status, /order/payStatus, /getPayInfo, /delete/check) is a read.
 */
export function riskyUrlWord(url: URL, words: readonly string[], actionParams: ReadonlySet<string>, reads: UrlReadWords): string | undefined {
  const last = wordsOf(decode(url.pathname.split('/').filter(Boolean).at(-1) ?? '')).split(' ')
  const asks = reads.urlReadVerbs.has(last[0] ?? '') || reads.urlReadNouns.has(last.at(-1) ?? '')
  const inPath = asks ? undefined : findKeyword(pathWords(url.pathname), words)
  if (inPath) return inPath
  for (const [name, value] of url.searchParams) {
    const nameWords = wordsOf(name)
    if (words.includes(nameWords)) return nameWords
    if (actionParams.has(name.toLowerCase()) && value.length <= 60) {
      const hit = findKeyword(wordsOf(value), words)
      if (hit) return hit
    }
  }
  return undefined
}

/**
 * Whether a text looks like a secret made for machines (a session or reset token, a JWT, a long hash) rather than
 * an id or a word a person would read. Cards, emails and phones are found by the sensitive-text rules instead.
 */
export function looksLikeToken(text: string): boolean {
  if (text.length < 20 || !/^[A-Za-z0-9._~+/=-]+$/.test(text) || !/[A-Za-z]/.test(text)) return false
  const digits = text.replace(/\D/g, '').length
  if (digits / text.length >= 0.2) return true
  // Mixed case with digits and no dashed words: base64 and JWTs, not slugs like "Release-Notes-2024".
  return text.length >= 24 && /[a-z]/.test(text) && /[A-Z]/.test(text) && /\d/.test(text) && !/[A-Za-z]{3,}-[A-Za-z]{3,}/.test(text)
}

const WEB = new Set(['http:', 'https:', 'ws:', 'wss:'])

/** The address as the person is shown it: path tokens and personal data masked, every query value masked. */
export function describeUrl(raw: string, url: URL | null, redact: RedactSettings): { url: string; origin: string; path: string } {
  if (!url || !WEB.has(url.protocol)) {
    // A data: or blob: address carries its content in the "path": show only what it is.
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(raw)?.[0] ?? ''
    return { url: scheme ? `${scheme}${MASK}` : MASK, origin: '', path: '' }
  }
  const path = url.pathname
    .split('/')
    .map((segment) => (looksLikeToken(decode(segment)) ? MASK : redactSensitiveText(segment, redact, MASK)))
    .join('/')
    .slice(0, 1000)
  const query = url.search
    .slice(1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=')
      const name = redactSensitiveText(at < 0 ? pair : pair.slice(0, at), redact, MASK).slice(0, 100)
      return at < 0 || at === pair.length - 1 ? name : `${name}=${MASK}`
    })
    .join('&')
  const origin = url.origin.slice(0, 500)
  return { url: `${origin}${path}${query ? `?${query}` : ''}`.slice(0, 2000), origin, path }
}

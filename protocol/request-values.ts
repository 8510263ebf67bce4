import { isRecord, type ParsedBody } from './request-body'

/**
 * The values a request sends, looked up by name the way analytics SDKs and shop platforms nest them: into JSON
 * objects, the first event of a batch, a form's bracketed names ("updates[12]"), and JSON sent as a text field
 * (Mixpanel's data=, plain or base64). Pure code: the barrier reads every request this way.
 */

export type Sent = Record<string, unknown>

const MAX_DECODED = 200_000
const URLENCODED = /^[^=&\s]+=[^&\s]*(?:&[^=&\s]+=[^&\s]*)*$/

/** The body as named values: a JSON object, a batch's first item, a form, or an NDJSON body's header line (Sentry). */
export function sentBody(body: ParsedBody, postData: string | undefined): Sent | undefined {
  if (body.type === 'json') {
    const value = Array.isArray(body.value) ? body.value[0] : body.value
    return isRecord(value) ? value : undefined
  }
  if (body.type === 'form') {
    // analytics.js and others send a query string as text/plain, which reads as one line of "name=value".
    const entries = postData && URLENCODED.test(postData.trim()) ? [...new URLSearchParams(postData.trim())] : body.entries
    const sent: Sent = {}
    for (const [name, value] of entries) if (!(name in sent)) sent[name] = value ?? ''
    return sent
  }
  if (body.type === 'opaque' && postData) {
    const end = postData.indexOf('\n')
    const first = (end < 0 ? postData : postData.slice(0, end)).trim()
    if (first.startsWith('{')) {
      const header = parseJson(first)
      if (isRecord(header)) return header
    }
  }
  return undefined
}

/** The query string as named values (the first of repeated names). */
export function sentQuery(url: URL): Sent {
  const sent: Sent = {}
  for (const [name, value] of url.searchParams) if (!(name in sent)) sent[name] = value
  return sent
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** JSON sent as text, or as base64 text (Mixpanel's and Sensors Data's data=); undefined when it is neither. */
function decodedText(text: string): unknown {
  if (text.length > MAX_DECODED) return undefined
  const trimmed = text.trim()
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return parseJson(trimmed)
  if (/^[A-Za-z0-9+/_-]{8,}={0,2}$/.test(trimmed) && typeof atob === 'function') {
    try {
      const decoded = atob(trimmed.replace(/-/g, '+').replace(/_/g, '/'))
      return /^\s*[[{]/.test(decoded) ? parseJson(decoded) : undefined
    } catch {
      return undefined
    }
  }
  return undefined
}

/** A named value of an object: the key itself, or the first of a form's bracketed keys under it ("updates[12]"). */
function member(object: Sent, name: string): unknown {
  if (name in object) return object[name]
  const prefix = `${name}[`
  for (const key of Object.keys(object)) if (key.startsWith(prefix)) return object[key]
  return undefined
}

/** The value at a dotted path ("payload.website", "events.event_type"), going into lists and JSON text on the way. */
export function valueAt(sent: Sent, path: readonly string[]): unknown {
  let value: unknown = sent
  for (const name of path) {
    if (typeof value === 'string') value = decodedText(value)
    if (Array.isArray(value)) value = value[0]
    if (!isRecord(value)) return undefined
    value = member(value, name)
  }
  return value
}

const patterns = new Map<string, RegExp>()
function patternOf(source: string): RegExp {
  let pattern = patterns.get(source)
  if (!pattern) {
    pattern = new RegExp(source, 'i')
    if (patterns.size < 5000) patterns.set(source, pattern)
  }
  return pattern
}

const isScalar = (value: unknown) => ['string', 'number', 'boolean'].includes(typeof value)

/**
 * Whether a request sends a field: "name" present and not empty, or "name=pattern" with a matching value; looked
 * up in the body, then the query string (many SDKs put their keys there and the events in the body).
 */
export function sendsField(spec: string, body: Sent | undefined, query: Sent): boolean {
  const eq = spec.indexOf('=')
  const path = (eq < 0 ? spec : spec.slice(0, eq)).split('.')
  const pattern = eq < 0 ? undefined : patternOf(spec.slice(eq + 1))
  return [body, query].some((sent) => {
    if (!sent) return false
    let value = valueAt(sent, path)
    if (Array.isArray(value) && pattern) value = value[0]
    if (value === undefined || value === null || value === '') return false
    return pattern ? isScalar(value) && pattern.test(String(value)) : true
  })
}

/** Every key of a body to a depth (nested objects and the objects of lists), for looking for what must not be sent. */
export function keysOf(value: unknown, depth = 3): string[] {
  const keys: string[] = []
  const walk = (v: unknown, level: number) => {
    if (level > depth || keys.length > 2000) return
    if (Array.isArray(v)) v.slice(0, 50).forEach((item) => walk(item, level))
    else if (isRecord(v)) {
      for (const [key, inner] of Object.entries(v)) {
        keys.push(key)
        walk(inner, level + 1)
      }
    }
  }
  walk(value, 0)
  return keys
}

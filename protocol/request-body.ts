/**
 * A request body read for its shape: which fields it sends and, for GraphQL, which operation. Only what the
 * barrier needs to describe and judge a request; anything it cannot read is 'opaque' and judged by method alone.
 */

/** A named value from a form; `value` is absent for a file. */
export type BodyEntry = readonly [name: string, value: string | undefined]

export type ParsedBody =
  | { type: 'none' }
  | { type: 'opaque' }
  | { type: 'json'; value: unknown }
  | { type: 'form'; entries: BodyEntry[] }
  | { type: 'graphql'; text: string }

// Bodies past this are uploads or blobs: parsing them would cost the page time for fields nobody reads.
const MAX_PARSED = 2_000_000
const URLENCODED = /^[^=&\s]+=[^&\s]*(?:&[^=&\s]+=[^&\s]*)*$/

/** A header's value whatever its case ("Content-Type", "content-type"). */
export function headerOf(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined
  const wanted = name.toLowerCase()
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value
  return undefined
}

/** A body read by its content type, or by its look when the type is missing or says less than it holds. */
export function parseBody(body: string | undefined, contentType = ''): ParsedBody {
  if (!body) return { type: 'none' }
  if (body.length > MAX_PARSED) return { type: 'opaque' }
  const type = contentType.toLowerCase()
  if (type.includes('application/graphql')) return { type: 'graphql', text: body }
  if (type.includes('multipart/form-data') || (!type && /^--\S+\r?\n/.test(body) && /content-disposition/i.test(body))) {
    return { type: 'form', entries: multipartEntries(body, contentType) }
  }
  // JSON by its look, not its label: sendBeacon and many fetch calls send JSON as text/plain.
  const trimmed = body.trimStart()
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return { type: 'json', value: JSON.parse(body) }
    } catch {
      if (type.includes('json')) return { type: 'opaque' }
    }
  }
  if (type.includes('x-www-form-urlencoded') || (!type && URLENCODED.test(body.trim()))) return { type: 'form', entries: urlencodedEntries(body) }
  if (type.startsWith('text/plain')) {
    // <form enctype="text/plain"> sends one name=value a line.
    const lines = body.split(/\r?\n/).filter(Boolean)
    if (lines.length && lines.every((line) => line.includes('='))) {
      return { type: 'form', entries: lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const) }
    }
  }
  return { type: 'opaque' }
}

function urlencodedEntries(body: string): BodyEntry[] {
  return [...new URLSearchParams(body.trim())]
}

function multipartEntries(body: string, contentType: string): BodyEntry[] {
  const declared = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)
  const boundary = declared?.[1] ?? declared?.[2] ?? /^--(\S+)\r?\n/.exec(body)?.[1]
  if (!boundary) return []
  const entries: BodyEntry[] = []
  for (const part of body.split(`--${boundary}`)) {
    const headEnd = part.search(/\r?\n\r?\n/)
    if (headEnd < 0) continue
    const disposition = /content-disposition:[^\r\n]*/i.exec(part.slice(0, headEnd))?.[0]
    const name = disposition && (/;\s*name="([^"]*)"/i.exec(disposition)?.[1] ?? /;\s*name=([^;\s]+)/i.exec(disposition)?.[1])
    if (name === undefined || name === null || name === '') continue
    // A file's content is the person's document, not a field value (and CDP often leaves it out anyway).
    const isFile = /;\s*filename\*?=/i.test(disposition!)
    const value = part.slice(headEnd).replace(/^\r?\n\r?\n/, '').replace(/\r?\n$/, '')
    entries.push([name, isFile ? undefined : value])
  }
  return entries
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The named values of a JSON object: top-level keys, with a value only when it is a plain string, number or flag. */
export function jsonEntries(value: unknown): BodyEntry[] {
  const object = Array.isArray(value) ? value.find(isRecord) : value
  if (!isRecord(object)) return []
  return Object.entries(object).map(([name, v]) => [name, ['string', 'number', 'boolean'].includes(typeof v) ? String(v) : undefined] as const)
}

/** The fields a parsed body sends, by name (GraphQL bodies are described by their operation instead). */
export function bodyEntries(body: ParsedBody): BodyEntry[] {
  if (body.type === 'form') return body.entries
  if (body.type === 'json') return jsonEntries(body.value)
  return []
}

/** The size of a body in UTF-8 bytes, as it goes over the wire. */
export function byteLength(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

// SQL that changes data. A "query" endpoint is a read only until it runs one of these (an admin's SQL console).
const SQL_WRITE = /^\s*(?:insert|update|delete|drop|truncate|alter|create|replace|merge|upsert|grant|revoke|exec|execute|call)\s/i

/** Whether any string the body sends (to three levels deep) is a SQL statement that writes. */
export function sendsSqlWrite(body: ParsedBody): boolean {
  const writes = (value: unknown, depth: number): boolean => {
    if (typeof value === 'string') return SQL_WRITE.test(value)
    if (depth >= 3 || typeof value !== 'object' || value === null) return false
    return Object.values(value).some((v) => writes(v, depth + 1))
  }
  if (body.type === 'form') return body.entries.some(([, value]) => value !== undefined && SQL_WRITE.test(value))
  return body.type === 'json' && writes(body.value, 0)
}

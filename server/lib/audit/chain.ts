import { createHash } from 'node:crypto'
import { AuditEvent, GENESIS_HASH, type ChainHead, type VerifyResult } from '#protocol'
import { splitLines } from './lines'

export type UnsealedEvent = Omit<AuditEvent, 'hash'>

/** The longest line (in UTF-8 bytes) the log writes and the verifier reads: bounds memory on both sides. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024

export const sha256Hex = (input: string | Uint8Array) => createHash('sha256').update(input).digest('hex')

/**
 * JSON with every object's keys sorted by UTF-16 code unit (as RFC 8785 does) and no whitespace, so the same
 * value always has the same text. Takes JSON values only (what JSON.parse returns); anything else throws,
 * because a value that does not survive a JSON round trip would hash differently once read back.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonical JSON has no NaN or Infinity')
    return JSON.stringify(value)
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const record = value as Record<string, unknown>
    const keys = Object.keys(record).sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`
  }
  throw new TypeError(`canonical JSON cannot hold a ${typeof value}`)
}

/** Event data as it will read back from the file: a JSON round trip drops undefined, calls toJSON, etc. */
export function toJsonData(data: Record<string, unknown> | undefined): Record<string, unknown> {
  if (data === undefined) return {}
  const copy: unknown = JSON.parse(JSON.stringify(data))
  if (!copy || typeof copy !== 'object' || Array.isArray(copy)) throw new TypeError('event data must be a JSON object')
  return copy as Record<string, unknown>
}

/**
 * The exact text of an event's line (no newline). The top-level keys keep one fixed, readable order and the
 * data is canonical, so the verifier can demand that a line is byte for byte what the writer produced.
 * Without `hash` this is the text that gets hashed.
 */
export function serializeEvent(event: UnsealedEvent | AuditEvent, dataJson = canonicalJson(event.data)): string {
  const q = JSON.stringify
  return (
    `{"seq":${q(event.seq)},"ts":${q(event.ts)},"taskId":${q(event.taskId)},"type":${q(event.type)}` +
    (event.actionId === undefined ? '' : `,"actionId":${q(event.actionId)}`) +
    `,"data":${dataJson},"prevHash":${q(event.prevHash)}` +
    ('hash' in event && event.hash !== undefined ? `,"hash":${q(event.hash)}` : '') +
    '}'
  )
}

export function hashEvent(event: UnsealedEvent, dataJson = canonicalJson(event.data)): string {
  const { hash: _ignored, ...unsealed } = event as AuditEvent
  return sha256Hex(serializeEvent(unsealed, dataJson))
}

/** Adds the hash; returns the event and its line. */
export function sealEvent(event: UnsealedEvent): { event: AuditEvent; line: string } {
  const dataJson = canonicalJson(event.data)
  const sealed: AuditEvent = { ...event, hash: hashEvent(event, dataJson) }
  return { event: sealed, line: serializeEvent(sealed, dataJson) }
}

/** The next event after `head` (null: the first of the task). */
export function nextEvent(
  head: ChainHead | null,
  fields: { ts: string; taskId: string; type: string; actionId?: string; data: Record<string, unknown> },
): { event: AuditEvent; line: string } {
  const { actionId, ...rest } = fields
  return sealEvent({
    seq: (head?.seq ?? 0) + 1,
    ...rest,
    ...(actionId === undefined ? {} : { actionId }),
    prevHash: head?.hash ?? GENESIS_HASH,
  })
}

type LineCheck = { ok: true; event: AuditEvent } | { ok: false; reason: string }

/** Checks one line on its own: JSON, shape, canonical form, own hash. Says nothing about its place in a chain. */
export function checkLine(text: string): LineCheck {
  if (text.length === 0) return { ok: false, reason: 'empty line' }
  if (text.length > MAX_LINE_BYTES) return { ok: false, reason: `line longer than ${MAX_LINE_BYTES} bytes` }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return { ok: false, reason: 'not JSON' }
  }
  const parsed = AuditEvent.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return { ok: false, reason: `not an audit event (${issue?.path.join('.') || 'line'}: ${issue?.message})` }
  }
  // Hash the object JSON.parse built, not zod's copy: they differ for keys such as "__proto__".
  const event = raw as AuditEvent
  let dataJson: string
  try {
    dataJson = canonicalJson(event.data)
  } catch {
    return { ok: false, reason: 'data cannot be put in canonical form' }
  }
  if (hashEvent(event, dataJson) !== event.hash) return { ok: false, reason: 'hash does not match the content (the line was edited)' }
  if (serializeEvent(event, dataJson) !== text) return { ok: false, reason: 'line is not in canonical form (it was rewritten)' }
  return { ok: true, event }
}

export interface ChainVerifier {
  /** Feeds the next complete line, without its newline. Returns false once the chain is broken. */
  line(text: string): boolean
  /** Whatever followed the last newline: anything there is a line that was never finished. */
  end(tail: string): VerifyResult
  /** Records a problem with the next line that was found without reading it (e.g. it is too long). */
  fail(reason: string): false
}

/**
 * Verifies a chain one line at a time, so a file of any size can be checked as it streams. `onEvent` sees each
 * event that verified, in order (for cross-checks such as artifact hashes).
 */
export function createChainVerifier(onEvent?: (event: AuditEvent) => void): ChainVerifier {
  let count = 0
  let head: ChainHead | null = null
  let taskId: string | undefined
  let problem: VerifyResult['problem']

  const fail = (reason: string): false => {
    problem = { line: count + 1, reason }
    return false
  }

  return {
    line(text) {
      if (problem) return false
      const checked = checkLine(text)
      if (!checked.ok) return fail(checked.reason)
      const { event } = checked
      const expected = count + 1
      if (event.seq !== expected) {
        return fail(`seq ${event.seq} where ${expected} was expected (a line was dropped, added or moved)`)
      }
      const previous = head?.hash ?? GENESIS_HASH
      if (event.prevHash !== previous) {
        return fail(
          count === 0
            ? 'the first event does not start from the genesis hash'
            : `prevHash does not match the hash of line ${count} (that line or this one was changed)`,
        )
      }
      if (taskId !== undefined && event.taskId !== taskId) return fail(`taskId differs from line 1's (lines from another task)`)
      taskId = event.taskId
      count = expected
      head = { seq: event.seq, hash: event.hash }
      onEvent?.(event)
      return true
    },
    fail: (reason) => (problem ? false : fail(reason)),
    end(tail) {
      if (!problem && tail.length > 0) fail('the last line is torn (no newline at its end: the write never finished)')
      return { ok: !problem, count, head, ...(problem ? { problem } : {}) }
    },
  }
}

/** Verifies a whole events.jsonl held in a string. */
export function verifyChain(jsonl: string, onEvent?: (event: AuditEvent) => void): VerifyResult {
  const verifier = createChainVerifier(onEvent)
  let start = 0
  for (;;) {
    const nl = jsonl.indexOf('\n', start)
    if (nl === -1) break
    if (!verifier.line(jsonl.slice(start, nl))) return verifier.end('')
    start = nl + 1
  }
  return verifier.end(jsonl.slice(start))
}

/** Verifies an events.jsonl as it streams (a file, a zip entry), one line in memory at a time. */
export async function verifyChainStream(
  chunks: AsyncIterable<Uint8Array>,
  onEvent?: (event: AuditEvent) => void,
): Promise<VerifyResult> {
  const verifier = createChainVerifier(onEvent)
  for await (const piece of splitLines(chunks, MAX_LINE_BYTES)) {
    if (piece.kind === 'tail') return verifier.end(piece.text)
    if (piece.kind === 'too-long') verifier.fail(`line longer than ${MAX_LINE_BYTES} bytes`)
    else if (verifier.line(piece.text)) continue
    break
  }
  return verifier.end('')
}

/** The events of an events.jsonl that parse, in file order; a torn last line is left out. Verify separately. */
export function parseEvents(jsonl: string): AuditEvent[] {
  const events: AuditEvent[] = []
  const lines = jsonl.split('\n')
  lines.pop() // after the last newline: empty, or a torn line
  for (const line of lines) {
    try {
      const parsed = AuditEvent.safeParse(JSON.parse(line))
      if (parsed.success) events.push(parsed.data)
    } catch {
      // a broken line: verifyChain names it
    }
  }
  return events
}

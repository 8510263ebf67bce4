import { decisiveCall, graphqlCalls, isReadName } from './graphql'
import type { HeldRequest, RequestClassification, RequestVerdict } from './held-request'
import type { HarmlessKind } from './harmless-kind'
import { bodyEntries, byteLength, isRecord, parseBody, type BodyEntry } from './request-body'
import { fieldsOf } from './request-fields'
import { describeUrl, wordsOf } from './request-url'
import type { RedactSettings } from './sensitive-text'
import { isThirdParty } from './site'
import { compileWriteRules, DEFAULT_WRITE_RULES, type WriteRules } from './write-rules-schema'

/**
 * A message a page sends over a WebSocket that is already open, judged as the write barrier judges a request: the
 * protocol's own keep-alives and handshakes and its subscriptions (reads) go; "is typing" and "seen" go as presence;
 * anything else may be the person's message, and is held. Pure code, shared by the extension and the tests.
 *
 * Reasons, as stable codes:
 * - 'socket-keepalive'  a ping, pong, heartbeat or noop of the protocol (engine.io, Phoenix, SignalR, STOMP, MQTT, …)
 * - 'socket-handshake'  a connection opening or closing of the protocol (socket.io connect, SignalR handshake, …)
 * - 'socket-subscribe'  a subscription, a channel joined or left, or a GraphQL query or subscription started
 * - 'socket-presence'   typing, seen, presence: harmless, let go as kind 'presence'
 * - 'graphql-mutation'  a GraphQL mutation sent over the socket → hold
 * - 'socket-message'    anything else → hold
 */

export interface SocketFrameFacts {
  /** The socket's address (ws: or wss:). */
  url: string
  /** A text frame, or the bytes of a binary one (possibly only the first of them: see `bytes`). */
  data: string | { binary: Uint8Array }
  /** The frame's full size in bytes, when `data` was cut short. */
  bytes?: number
  /** The top page of the tab. */
  pageUrl?: string
}

type Judged = [RequestVerdict, string, HarmlessKind?]
const KEEPALIVE: Judged = ['pass', 'socket-keepalive']
const HANDSHAKE: Judged = ['pass', 'socket-handshake']
const SUBSCRIBE: Judged = ['pass', 'socket-subscribe']
const PRESENCE: Judged = ['pass', 'socket-presence', 'presence']
const MESSAGE: Judged = ['hold', 'socket-message']

const KEEPALIVE_WORDS = new Set(['ping', 'pong', 'heartbeat', 'hb', 'keepalive', 'keep alive', 'noop', 'pusher ping', 'pusher pong'])
const SUBSCRIBE_WORDS = new Set(['subscribe', 'unsubscribe', 'sub', 'unsub', 'join', 'leave', 'phx join', 'phx leave', 'pusher subscribe', 'pusher unsubscribe', 'watch', 'unwatch'])
// What a page says about the person being there, never what they say: "is typing", "seen", online/away.
// The whole name must say so ("typing", "start_typing", "presence_update"): "active_chat_message" is a message.
const PRESENCE_WORDS =
  /^(?:(?:start|stop|is|user|set|send|update|client|chat)\s)?(?:typing|presence|seen|read receipt|mark read|mark as read|online|offline|away|idle|focus|blur|active|inactive|activity)(?:\s(?:start|stop|started|stopped|indicator|status|update|state|event|on|off))?$/

/** How a message names what it does: a type, event, action, command or op, as the common JSON protocols put it. */
function nameIn(value: Record<string, unknown>): string | undefined {
  for (const key of ['type', 'event', 'action', 'command', 'cmd', 'op', 'method', 'kind']) {
    const v = value[key]
    if (typeof v === 'string' && v.length <= 100) return v
  }
  return undefined
}

function byName(name: string | undefined): Judged | null {
  if (!name) return null
  const words = wordsOf(name)
  if (KEEPALIVE_WORDS.has(words)) return KEEPALIVE
  if (SUBSCRIBE_WORDS.has(words)) return SUBSCRIBE
  if (PRESENCE_WORDS.test(words)) return PRESENCE
  return null
}

interface Reading {
  judged: Judged
  entries: BodyEntry[]
  operation?: HeldRequest['operation']
}

const entriesOf = (value: unknown, name?: string): BodyEntry[] => {
  const own = isRecord(value) || Array.isArray(value) ? bodyEntries({ type: 'json', value }) : value === undefined ? [] : [['value', String(value)] as const]
  return name ? [['event', name] as const, ...own] : own
}

const GRAPHQL_ENDPOINT = new URL('http://socket.invalid/graphql')

/** A GraphQL-over-WebSocket message (graphql-ws and the older subscriptions-transport-ws). */
function graphqlWs(value: Record<string, unknown>, rules: WriteRules): Reading | null {
  const type = value.type
  if (type === 'connection_init' || type === 'connection_terminate') return { judged: HANDSHAKE, entries: [] }
  if (type === 'ping' || type === 'pong' || type === 'ka') return { judged: KEEPALIVE, entries: [] }
  if (type === 'complete' || type === 'stop') return { judged: SUBSCRIBE, entries: [] }
  if ((type !== 'subscribe' && type !== 'start') || !isRecord(value.payload)) return null
  const c = compileWriteRules(rules)
  // The message says it is GraphQL: its payload is read as one sent to a GraphQL endpoint.
  const calls = graphqlCalls({ type: 'json', value: value.payload }, GRAPHQL_ENDPOINT)
  if (!calls) return { judged: MESSAGE, entries: entriesOf(value.payload) }
  const call = decisiveCall(calls, c)
  const opType = call.type ?? (isReadName(call.name, c) ? 'query' : 'mutation')
  const operation = { type: opType, ...(call.name ? { name: call.name.slice(0, 200) } : {}) }
  const entries = entriesOf(call.variables)
  return { judged: opType === 'mutation' ? ['hold', 'graphql-mutation'] : SUBSCRIBE, entries, operation }
}

/** A JSON message: Phoenix, SignalR, ActionCable, GraphQL over WS, Pusher, or a site's own. */
function jsonMessage(value: unknown, rules: WriteRules): Reading {
  // Phoenix v2: [join_ref, ref, topic, event, payload].
  if (Array.isArray(value) && value.length === 5 && typeof value[2] === 'string' && typeof value[3] === 'string') {
    const [, , topic, event, payload] = value as [unknown, unknown, string, string, unknown]
    if (topic === 'phoenix' && event === 'heartbeat') return { judged: KEEPALIVE, entries: [] }
    return { judged: byName(event) ?? MESSAGE, entries: entriesOf(payload, event) }
  }
  if (!isRecord(value)) return { judged: MESSAGE, entries: entriesOf(value) }
  // Phoenix v1: {topic, event, payload, ref}.
  if (typeof value.topic === 'string' && typeof value.event === 'string' && 'payload' in value) {
    if (value.topic === 'phoenix' && value.event === 'heartbeat') return { judged: KEEPALIVE, entries: [] }
    return { judged: byName(value.event) ?? MESSAGE, entries: entriesOf(value.payload, value.event) }
  }
  // SignalR: the handshake, then {type: n}; 1 invokes a hub method by name.
  if (typeof value.protocol === 'string' && typeof value.version === 'number' && Object.keys(value).length === 2) return { judged: HANDSHAKE, entries: [] }
  if (typeof value.type === 'number') {
    if (value.type === 6) return { judged: KEEPALIVE, entries: [] }
    if (value.type === 7 || value.type === 5 || value.type === 3) return { judged: HANDSHAKE, entries: [] }
    const target = typeof value.target === 'string' ? value.target : undefined
    const args = Array.isArray(value.arguments) ? (value.arguments.find(isRecord) ?? value.arguments[0]) : undefined
    return { judged: byName(target) ?? MESSAGE, entries: entriesOf(args, target) }
  }
  // ActionCable: subscribing is a read; a message's data names the channel action it performs.
  if (typeof value.command === 'string' && typeof value.identifier === 'string') {
    if (value.command !== 'message') return { judged: SUBSCRIBE, entries: [] }
    const data = typeof value.data === 'string' ? parseBody(value.data) : { type: 'none' as const }
    const inner = data.type === 'json' && isRecord(data.value) ? data.value : {}
    const action = typeof inner.action === 'string' ? inner.action : undefined
    return { judged: byName(action) ?? MESSAGE, entries: entriesOf(inner) }
  }
  const graphql = graphqlWs(value, rules)
  if (graphql) return graphql
  const name = nameIn(value)
  return { judged: byName(name) ?? MESSAGE, entries: entriesOf(value) }
}

/** engine.io packets ("2" ping, "3" pong, "2probe", "5" upgrade, "6" noop) and socket.io ones inside "4". */
function engineIo(text: string): Reading | null {
  if (/^[2356](?:probe)?$/.test(text)) return { judged: KEEPALIVE, entries: [] }
  // socket.io: 40/41 connect and disconnect (a namespace, auth), 42 an event, 43 an ack; a binary event 45/46.
  const packet = /^4([0-6])(?:\d+-)?(?:(\/[^,]*),)?(\d*)(.*)$/s.exec(text)
  if (!packet) return null
  const [, type, , , rest] = packet as unknown as [string, string, string | undefined, string, string]
  if (type === '0' || type === '1') return { judged: HANDSHAKE, entries: [] }
  let args: unknown
  try {
    args = JSON.parse(rest)
  } catch {
    return null
  }
  if (!Array.isArray(args)) return null
  if (type === '2' || type === '5') {
    const event = typeof args[0] === 'string' ? args[0] : undefined
    const payload = args.slice(1).find(isRecord) ?? args[1]
    return { judged: byName(event) ?? MESSAGE, entries: entriesOf(payload, event) }
  }
  return { judged: MESSAGE, entries: entriesOf(args.find(isRecord) ?? args[0]) }
}

/** A text frame, by the protocol it looks like. */
function textMessage(text: string, rules: WriteRules): Reading {
  // STOMP's heart-beat is a bare newline; an empty frame says nothing at all.
  if (!text.trim()) return { judged: KEEPALIVE, entries: [] }
  // SignalR ends each message with a record separator.
  const body = text.replace(/\u001e+$/, '')
  const trimmed = body.trim()
  if (KEEPALIVE_WORDS.has(wordsOf(trimmed)) && trimmed.length <= 20) return { judged: KEEPALIVE, entries: [] }
  const io = engineIo(body)
  if (io) return io
  // STOMP frames: a command line, headers, a body ending in NUL.
  const stomp = /^(CONNECT|STOMP|SUBSCRIBE|UNSUBSCRIBE|DISCONNECT|ACK|NACK|SEND|BEGIN|COMMIT|ABORT)\r?\n/.exec(body)
  if (stomp) {
    const command = stomp[1]!
    if (command === 'SUBSCRIBE' || command === 'UNSUBSCRIBE') return { judged: SUBSCRIBE, entries: [] }
    if (command !== 'SEND') return { judged: HANDSHAKE, entries: [] }
    const message = body.split(/\r?\n\r?\n/).slice(1).join('\n\n').replace(/\0$/, '')
    const parsed = parseBody(message)
    return { judged: MESSAGE, entries: parsed.type === 'none' || parsed.type === 'opaque' ? [['text', message]] : bodyEntries(parsed) }
  }
  const parsed = parseBody(body)
  if (parsed.type === 'json') return jsonMessage(parsed.value, rules)
  if (parsed.type === 'form') return { judged: MESSAGE, entries: parsed.entries }
  return { judged: MESSAGE, entries: [['text', body]] }
}

/** MQTT over WebSocket: a fixed header byte says the packet type; only PUBLISH carries a message. */
function binaryMessage(bytes: Uint8Array): Reading {
  if (!bytes.length) return { judged: KEEPALIVE, entries: [] }
  const type = bytes[0]! >> 4
  // PINGREQ and DISCONNECT are two bytes, their remaining length zero.
  if ((bytes[0] === 0xc0 || bytes[0] === 0xe0) && bytes.length === 2 && bytes[1] === 0) return { judged: bytes[0] === 0xc0 ? KEEPALIVE : HANDSHAKE, entries: [] }
  // CONNECT starts "MQTT" (or "MQIsdp") after its length; SUBSCRIBE and UNSUBSCRIBE are 0x82 and 0xa2.
  if (type === 1 && /MQ(?:TT|Isdp)/.test(String.fromCharCode(...bytes.subarray(0, 16)))) return { judged: HANDSHAKE, entries: [] }
  if (bytes[0] === 0x82 || bytes[0] === 0xa2) return { judged: SUBSCRIBE, entries: [] }
  return { judged: MESSAGE, entries: [] }
}

/** Whether a message sent over an open WebSocket may go, and what it carries as the person is shown it. */
export function classifySocketFrame(facts: SocketFrameFacts, redact: RedactSettings = {}, rules: WriteRules = DEFAULT_WRITE_RULES): RequestClassification {
  const c = compileWriteRules(rules)
  const url = URL.canParse(facts.url) ? new URL(facts.url) : null
  const page = facts.pageUrl && URL.canParse(facts.pageUrl) ? new URL(facts.pageUrl) : null
  const text = typeof facts.data === 'string' ? facts.data : undefined
  const reading = text !== undefined ? textMessage(text, rules) : binaryMessage((facts.data as { binary: Uint8Array }).binary)
  const [verdict, reason, kind] = reading.judged
  const bytes = facts.bytes ?? (text !== undefined ? byteLength(text) : (facts.data as { binary: Uint8Array }).binary.length)
  // describeUrl shows only web addresses: the socket's is shown as its http(s) twin would be, with its own scheme.
  const web = url ? new URL(url.href.replace(/^ws/, 'http')) : null
  const shown = describeUrl(facts.url, web, redact)
  const thirdParty = isThirdParty(web, page, c.suffixes)
  const request: HeldRequest = {
    method: 'SEND',
    url: url ? shown.url.replace(/^http/, 'ws') : shown.url,
    origin: url ? shown.origin.replace(/^http/, 'ws') : shown.origin,
    path: shown.path,
    kind: 'websocket',
    fields: fieldsOf(reading.entries, redact),
    ...(reading.operation ? { operation: reading.operation } : {}),
    bytes,
    ...(thirdParty !== undefined ? { thirdParty } : {}),
  }
  return { verdict, reason, request, ...(kind ? { kind } : {}) }
}

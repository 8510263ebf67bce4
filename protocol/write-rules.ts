import { decisiveCall, graphqlCalls, isReadName, type GraphqlCall } from './graphql'
import type { HarmlessKind } from './harmless-kind'
import { harmlessKindOf, harmlessOperationKind } from './harmless-writes'
import type { HeldRequest, RequestClassification, RequestFacts, RequestKind, RequestVerdict } from './held-request'
import { bodyEntries, byteLength, headerOf, parseBody, sendsSqlWrite, type ParsedBody } from './request-body'
import { fieldsOf } from './request-fields'
import { describeUrl, lastSegment, pathWords, riskyUrlWord } from './request-url'
import { findKeyword } from './risk-rules'
import type { RedactSettings } from './sensitive-text'
import { isThirdParty, matchesHostEntry, registrableDomain } from './site'
import { compileWriteRules, DEFAULT_WRITE_RULES, type CompiledWriteRules, type WriteRules } from './write-rules-schema'

export { DEFAULT_WRITE_RULES, extendWriteRules, WriteRules, type WriteRulesInput } from './write-rules-schema'

/**
 * Which requests an unapproved step may send (reads), which it must ask about (writes), and which are nobody's
 * business to ask about (telemetry). Shared by the server and the extension; pure code.
 *
 * Reasons, as stable codes:
 * - 'read-method'      GET/HEAD/OPTIONS with nothing risky in the URL → pass
 * - 'risky-url'        GET/HEAD navigation or fetch whose path or action parameter names an effect → hold
 * - 'websocket'        a WebSocket being opened: what it sends later is out of sight → hold
 * - 'telemetry-host'   a third-party analytics/ads/error host sent data (not loading its script) → drop
 * - 'telemetry-path'   a POST or beacon to a telemetry path, third-party, or first-party by beacon → drop
 * - 'link-ping'        an <a ping> (hyperlink auditing: it can carry nothing but "PING") → drop
 * - 'browser-report'   a CSP or Reporting API report the browser sends by itself → drop
 * - 'form-post'        a form submission that navigates → hold
 * - 'beacon'           a first-party sendBeacon that is not telemetry (it may well be a write) → hold
 * - 'graphql-query'    a GraphQL query or subscription sent by POST to a path with no write word → pass
 * - 'graphql-mutation' a GraphQL mutation (by POST, or by GET where servers allow it) → hold
 * - 'graphql-persisted-read' / 'graphql-persisted'  a persisted operation named as a read → pass; any other → hold
 * - 'search-endpoint'  POST to a search/suggest/autocomplete path with no write word, sending no SQL write → pass
 * - 'write-method'     any other method (POST, PUT, PATCH, DELETE, unknown) → hold
 * - 'harmless-<kind>'  a write to the page's own site that 'write-method', 'beacon', 'graphql-mutation' or
 *                      'graphql-persisted' would hold, recognised by what it is as harmless (harmless-writes.ts):
 *                      'harmless-telemetry', '-cart', '-wishlist', '-preference', '-draft', '-presence' → pass
 *
 * A risky URL, a form post that navigates and a WebSocket are never harmless: what they do is out of sight or
 * says it acts. Whether the person wants a kind asked about all the same is the caller's to decide (asksAlways).
 *
 * Logging out (GET /logout) is held though it destroys nothing: it ends the person's session, which they did not
 * ask for, and the task with it.
 */

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
const WEB = new Set(['http:', 'https:'])
// webRequest's names (the fallback) for CDP's resource types.
const WEB_REQUEST_TYPES: Record<string, string> = {
  main_frame: 'Document', sub_frame: 'Document', xmlhttprequest: 'XHR', ping: 'Ping', beacon: 'Ping',
  websocket: 'WebSocket', csp_report: 'CSPViolationReport', script: 'Script', stylesheet: 'Stylesheet',
  image: 'Image', imageset: 'Image', font: 'Font', media: 'Media', object: 'Other', other: 'Other',
}
// Loading these sends nothing but the URL, and a page can hang on a missing script (anti-flicker snippets
// hide it until the tag manager loads), so a telemetry host's code is let through; its hits are not.
const LOADS_CODE = new Set(['Script', 'Stylesheet', 'Font', 'Media', 'Manifest', 'TextTrack', 'Prefetch', 'SignedExchange'])
// Where a URL is acted on: a navigation, a script's request, or something the barrier could not name; and a
// JSONP call, a script load that is an API call (Taobao's mtop deletes a cart item that way).
const URL_JUDGED = new Set(['Document', 'XHR', 'Fetch', 'Other', ''])
const JSONP_PARAMS = ['callback', 'cb', 'jsonp', 'jsoncallback']
const isJsonp = (type: string, url: URL) => type === 'Script' && JSONP_PARAMS.some((name) => url.searchParams.has(name))
const REPORT_TYPES = /^application\/(?:csp-report|reports\+json|expect-ct-report\+json)/i

function resourceTypeOf(facts: RequestFacts, url: URL | null): string {
  if (url?.protocol === 'ws:' || url?.protocol === 'wss:') return 'WebSocket'
  const type = facts.resourceType ?? ''
  return WEB_REQUEST_TYPES[type] ?? type
}

function kindOf(type: string, read: boolean): RequestKind {
  if (type === 'Document') return read ? 'navigation' : 'form'
  if (type === 'Ping') return 'beacon'
  if (type === 'WebSocket') return 'websocket'
  if (type === 'XHR' || type === 'Fetch' || type === 'EventSource') return 'fetch'
  return 'other'
}

const parse = (text: string | undefined) => (text && URL.canParse(text) ? new URL(text) : null)

interface Judged {
  method: string
  type: string
  contentType: string
  url: URL | null
  thirdParty: boolean | undefined
  body: ParsedBody
  postData: string | undefined
  graphql: GraphqlCall[] | null
}
type Decision = [RequestVerdict, string, HarmlessKind?]

function isTelemetryPath(url: URL, c: CompiledWriteRules): boolean {
  const last = lastSegment(url.pathname)
  return !!last && (c.telemetryPaths.has(last.name) || c.telemetryPaths.has(last.bare))
}
const isFirstPartyTelemetry = (url: URL, c: CompiledWriteRules) =>
  c.rules.firstPartyTelemetryPaths.some((p) => url.pathname === p.replace(/\/$/, '') || url.pathname.startsWith(p))
const isTelemetryHost = (url: URL, c: CompiledWriteRules) => c.rules.telemetryHosts.some((entry) => matchesHostEntry(url, entry))

// The holds a harmless write can be let out of: what they hold is judged by what it sends.
const HARMLESS_HOLDS = new Set(['write-method', 'beacon', 'graphql-mutation', 'graphql-persisted'])

function decide(judged: Judged, c: CompiledWriteRules): Decision {
  const [verdict, reason] = judge(judged, c)
  if (verdict !== 'hold' || !HARMLESS_HOLDS.has(reason) || !judged.url) return [verdict, reason]
  const { graphql, thirdParty } = judged
  // A GraphQL call is harmless by its operation's name only; a REST look-alike path says nothing about it.
  const kind = graphql
    ? reason.startsWith('graphql-')
      ? harmlessOperationKind(graphql, (call) => call.type === 'mutation' || (call.type === undefined && !isReadName(call.name, c)), thirdParty, c.harmless)
      : undefined
    : harmlessKindOf({ ...judged, url: judged.url }, c.harmless)
  return kind ? ['pass', `harmless-${kind}`, kind] : [verdict, reason]
}

function judge({ method, type, contentType, url, thirdParty, body, graphql }: Judged, c: CompiledWriteRules): Decision {
  const read = READ_METHODS.has(method)
  // A navigation to an ad's click URL is the page's own flow; anything else a telemetry host is sent is data.
  if (url && thirdParty && type !== 'Document' && !(read && LOADS_CODE.has(type)) && isTelemetryHost(url, c)) return ['drop', 'telemetry-host']
  if (type === 'WebSocket') return ['hold', 'websocket']
  if (type === 'CSPViolationReport' || type === 'Report' || REPORT_TYPES.test(contentType)) return ['drop', 'browser-report']
  if (read) {
    if (method === 'OPTIONS') return ['pass', 'read-method']
    if (graphql?.some((call) => call.type === 'mutation')) return ['hold', 'graphql-mutation']
    if (url && WEB.has(url.protocol) && (URL_JUDGED.has(type) || isJsonp(type, url)) && riskyUrlWord(url, c.urlWords, c.actionParams, c)) return ['hold', 'risky-url']
    return ['pass', 'read-method']
  }
  if (type === 'Document') return ['hold', 'form-post']
  if (type === 'Ping' && /^text\/ping\b/i.test(contentType)) return ['drop', 'link-ping']
  if (url && (isFirstPartyTelemetry(url, c) || (isTelemetryPath(url, c) && (thirdParty || type === 'Ping')))) return ['drop', 'telemetry-path']
  if (type === 'Ping') return ['hold', 'beacon']
  const words = url ? pathWords(url.pathname) : ''
  const writesByPath = !!findKeyword(words, c.writeWords)
  if (graphql) {
    const call = decisiveCall(graphql, c)
    if (call.type === 'mutation') return ['hold', 'graphql-mutation']
    if (call.type) return writesByPath ? ['hold', 'write-method'] : ['pass', 'graphql-query']
    return isReadName(call.name, c) && !writesByPath ? ['pass', 'graphql-persisted-read'] : ['hold', 'graphql-persisted']
  }
  if (findKeyword(words, c.rules.readEndpointWords) && !writesByPath && !sendsSqlWrite(body)) return ['pass', 'search-endpoint']
  return ['hold', 'write-method']
}

/**
 * Whether a request from a task's tab can change something on a server, and what it carries. `redact` says
 * which personal data to mask in field values besides card numbers (always masked).
 */
export function classifyRequest(facts: RequestFacts, rules: WriteRules = DEFAULT_WRITE_RULES, redact: RedactSettings = {}): RequestClassification {
  const c = compileWriteRules(rules)
  // No method is no reason to trust a request: it is judged as an unknown one.
  const method = facts.method.trim().toUpperCase() || 'UNKNOWN'
  const read = READ_METHODS.has(method)
  const url = parse(facts.url)
  const type = resourceTypeOf(facts, url)
  const thirdParty = isThirdParty(url, parse(facts.pageUrl), c.suffixes)
  const contentType = headerOf(facts.headers, 'content-type') ?? ''
  const body = parseBody(facts.postData, contentType)
  // The query string speaks for a request only when there is no body.
  const query = url && !facts.postData ? [...url.searchParams] : undefined
  const graphql = graphqlCalls(body, url, read ? query : undefined)
  const [verdict, reason, kind] = decide({ method, type, contentType, url, thirdParty, body, postData: facts.postData, graphql }, c)

  const call = graphql && decisiveCall(graphql, c)
  const entries = call ? bodyEntries({ type: 'json', value: call.variables }) : body.type === 'none' ? (query ?? []) : bodyEntries(body)
  const length = Number(headerOf(facts.headers, 'content-length'))
  const bytes = facts.postData !== undefined ? byteLength(facts.postData) : Number.isInteger(length) && length >= 0 ? length : undefined
  const request: HeldRequest = {
    method: method.slice(0, 16),
    ...describeUrl(facts.url, url, redact),
    kind: kindOf(type, read),
    fields: fieldsOf(entries, redact),
    ...(call ? { operation: operationOf(call, c) } : {}),
    ...(bytes !== undefined ? { bytes } : {}),
    ...(thirdParty !== undefined ? { thirdParty } : {}),
  }
  return { verdict, reason, request, ...(kind ? { kind } : {}) }
}

/** A persisted operation has no type of its own: it is shown as what its name says, a query or a possible write. */
function operationOf(call: GraphqlCall, c: CompiledWriteRules): NonNullable<HeldRequest['operation']> {
  const type = call.type ?? (isReadName(call.name, c) ? 'query' : 'mutation')
  return { type, ...(call.name ? { name: call.name.slice(0, 200) } : {}) }
}

/** The site (registrable domain) of an address, as the rules tell sites apart: a key for per-site choices. */
export function siteOf(url: string, rules: WriteRules = DEFAULT_WRITE_RULES): string | undefined {
  const parsed = parse(url)
  return parsed && /^(?:https?|wss?):$/.test(parsed.protocol) ? registrableDomain(parsed.hostname, compileWriteRules(rules).suffixes) : undefined
}

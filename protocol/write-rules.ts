import { z } from 'zod'
import data from './write-rules.json'
import { decisiveCall, graphqlCalls, isReadName, type GraphqlCall } from './graphql'
import type { HeldRequest, RequestClassification, RequestFacts, RequestKind, RequestVerdict } from './held-request'
import { bodyEntries, byteLength, headerOf, parseBody } from './request-body'
import { fieldsOf } from './request-fields'
import { describeUrl, lastSegment, pathWords, riskyUrlWord } from './request-url'
import { HIGH_KEYWORDS, findKeyword } from './risk-rules'
import type { RedactSettings } from './sensitive-text'
import { isThirdParty, matchesHostEntry, registrableDomain } from './site'

/**
 * Which requests an unapproved step may send (reads), which it must ask about (writes), and which are nobody's
 * business to ask about (third-party telemetry). Shared by the server and the extension; pure code.
 *
 * Reasons, as stable codes:
 * - 'read-method'      GET/HEAD/OPTIONS with nothing risky in the URL → pass
 * - 'risky-url'        GET/HEAD navigation or fetch whose path or action parameter names an effect → hold
 * - 'websocket'        a WebSocket being opened: what it sends later is out of sight → hold
 * - 'telemetry-host'   a third-party analytics/ads/error host sending data (not loading a script) → drop
 * - 'telemetry-path'   a POST or beacon to a telemetry path, third-party, or first-party by beacon → drop
 * - 'browser-report'   a CSP or Reporting API report the browser sends by itself → drop
 * - 'form-post'        a form submission that navigates → hold
 * - 'beacon'           a first-party beacon or <a ping> that is not telemetry → hold
 * - 'graphql-query'    a GraphQL query or subscription sent by POST → pass
 * - 'graphql-mutation' a GraphQL mutation → hold
 * - 'graphql-persisted-read' / 'graphql-persisted'  a persisted operation named as a read → pass; any other → hold
 * - 'search-endpoint'  POST to a search/suggest/autocomplete path with no write word in it → pass
 * - 'write-method'     any other method (POST, PUT, PATCH, DELETE, unknown) → hold
 */

const Words = z.array(z.string().min(1).max(200)).max(5000).default([])

export const WriteRules = z.strictObject({
  /** Telemetry and ads hosts, with subdomains, optionally with a path ("facebook.com/tr"); dropped when third-party. */
  telemetryHosts: Words,
  /** Last path segments of telemetry endpoints ("collect", "track"); a file extension is ignored ("hm.gif"). */
  telemetryPaths: Words,
  /** Path prefixes that are telemetry wherever they are served ("/cdn-cgi/rum"). */
  firstPartyTelemetryPaths: Words,
  /** Path words of endpoints that read though sent by POST ("search", "suggest", "sugrec"). */
  readEndpointWords: Words,
  /** Words that make a search-looking path a write ("/api/search/history/add"), beside the high-risk words. */
  writeWords: Words,
  /** Words that make a GET URL risky, beside the high-risk label words ("logout", "cancel"). */
  urlWords: Words,
  /** High-risk label words that in a URL name a page, not an act ("/post/123", "/jobs/apply"). */
  urlNeutralWords: Words,
  /** Query parameters whose value names the action (?action=delete, ThinkPHP's ?a=del). */
  actionParams: Words,
  /** First words of a persisted GraphQL operation's name that mean it reads ("GetViewer", "ListRepos"). */
  graphqlReadVerbs: Words,
  /** Public suffixes of more than one label ("co.uk", "com.cn", "github.io"), for telling sites apart. */
  multiPartSuffixes: Words,
})
export type WriteRules = z.output<typeof WriteRules>
export type WriteRulesInput = z.input<typeof WriteRules>

export const DEFAULT_WRITE_RULES: WriteRules = WriteRules.parse(data)

/** The default rules with more entries added (a deployment's own telemetry hosts, say); nothing is taken away. */
export function extendWriteRules(extra: WriteRulesInput, base: WriteRules = DEFAULT_WRITE_RULES): WriteRules {
  const more = WriteRules.parse(extra)
  const merged = Object.fromEntries(
    Object.entries(base).map(([key, list]) => [key, [...new Set([...list, ...more[key as keyof WriteRules]])]]),
  )
  return WriteRules.parse(merged)
}

interface Compiled {
  rules: WriteRules
  suffixes: Set<string>
  urlWords: string[]
  writeWords: string[]
  actionParams: Set<string>
  telemetryPaths: Set<string>
  readVerbs: Set<string>
}
const compiledRules = new WeakMap<WriteRules, Compiled>()
function compile(rules: WriteRules): Compiled {
  let compiled = compiledRules.get(rules)
  if (!compiled) {
    const lower = (list: string[]) => list.map((w) => w.toLowerCase())
    const neutral = new Set(lower(rules.urlNeutralWords))
    const urlWords = [...HIGH_KEYWORDS.filter((w) => !neutral.has(w)), ...lower(rules.urlWords)]
    compiled = {
      rules,
      suffixes: new Set(lower(rules.multiPartSuffixes)),
      urlWords,
      writeWords: [...new Set([...HIGH_KEYWORDS, ...urlWords, ...lower(rules.writeWords)])],
      actionParams: new Set(lower(rules.actionParams)),
      telemetryPaths: new Set(lower(rules.telemetryPaths)),
      readVerbs: new Set(lower(rules.graphqlReadVerbs)),
    }
    compiledRules.set(rules, compiled)
  }
  return compiled
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
// webRequest's names (the fallback) for CDP's resource types.
const WEB_REQUEST_TYPES: Record<string, string> = {
  main_frame: 'Document', sub_frame: 'Document', xmlhttprequest: 'XHR', ping: 'Ping', beacon: 'Ping',
  websocket: 'WebSocket', csp_report: 'CSPViolationReport', script: 'Script', stylesheet: 'Stylesheet',
  image: 'Image', imageset: 'Image', font: 'Font', media: 'Media', object: 'Other', other: 'Other',
}
// Loading these sends nothing but the URL, and a page can hang on a missing script (anti-flicker snippets
// hide it until the tag manager loads), so a telemetry host's code is let through; its hits are not.
const LOADS_CODE = new Set(['Script', 'Stylesheet', 'Font', 'Media', 'Manifest', 'TextTrack', 'Prefetch', 'SignedExchange'])
// Where a URL is acted on: a navigation, a script's request, or something the barrier could not name.
const URL_JUDGED = new Set(['Document', 'XHR', 'Fetch', 'Other', ''])

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

interface Facts {
  method: string
  type: string
  url: URL | null
  thirdParty: boolean | undefined
  graphql: GraphqlCall[] | null
}
type Decision = [RequestVerdict, string]

function isTelemetryPath(url: URL, c: Compiled): boolean {
  const last = lastSegment(url.pathname)
  return !!last && (c.telemetryPaths.has(last.name) || c.telemetryPaths.has(last.bare))
}
const isFirstPartyTelemetry = (url: URL, c: Compiled) =>
  c.rules.firstPartyTelemetryPaths.some((p) => url.pathname === p.replace(/\/$/, '') || url.pathname.startsWith(p))

function decide({ method, type, url, thirdParty, graphql }: Facts, c: Compiled): Decision {
  const read = READ_METHODS.has(method)
  // A navigation to an ad's click URL is the page's own flow; everything else a telemetry host is sent is data.
  if (url && thirdParty && type !== 'Document' && !(read && LOADS_CODE.has(type)) && c.rules.telemetryHosts.some((h) => matchesHostEntry(url, h))) {
    return ['drop', 'telemetry-host']
  }
  if (type === 'WebSocket') return ['hold', 'websocket']
  if (type === 'CSPViolationReport' || type === 'Report') return ['drop', 'browser-report']
  if (read) {
    if (method === 'OPTIONS') return ['pass', 'read-method']
    if (graphql?.some((call) => call.type === 'mutation')) return ['hold', 'graphql-mutation']
    if (url && URL_JUDGED.has(type) && riskyUrlWord(url, c.urlWords, c.actionParams)) return ['hold', 'risky-url']
    return ['pass', 'read-method']
  }
  if (type === 'Document') return ['hold', 'form-post']
  if (url && (isFirstPartyTelemetry(url, c) || (isTelemetryPath(url, c) && (thirdParty || type === 'Ping')))) return ['drop', 'telemetry-path']
  if (type === 'Ping') return ['hold', 'beacon']
  if (graphql) {
    const call = decisiveCall(graphql, c.readVerbs)
    if (call.type === 'mutation') return ['hold', 'graphql-mutation']
    if (call.type) return ['pass', 'graphql-query']
    return isReadName(call.name, c.readVerbs) ? ['pass', 'graphql-persisted-read'] : ['hold', 'graphql-persisted']
  }
  if (url) {
    const words = pathWords(url.pathname)
    if (findKeyword(words, c.rules.readEndpointWords) && !findKeyword(words, c.writeWords)) return ['pass', 'search-endpoint']
  }
  return ['hold', 'write-method']
}

/**
 * Whether a request from a task's tab can change something on a server, and what it carries. `redact` says
 * which personal data to mask in field values besides card numbers (always masked).
 */
export function classifyRequest(facts: RequestFacts, rules: WriteRules = DEFAULT_WRITE_RULES, redact: RedactSettings = {}): RequestClassification {
  const c = compile(rules)
  const method = facts.method.trim().toUpperCase() || 'GET'
  const url = parse(facts.url)
  const type = resourceTypeOf(facts, url)
  const thirdParty = isThirdParty(url, parse(facts.pageUrl), c.suffixes)
  const body = parseBody(facts.postData, headerOf(facts.headers, 'content-type'))
  const query = url && !facts.postData ? [...url.searchParams] : undefined
  const graphql = graphqlCalls(body, url, query)
  const [verdict, reason] = decide({ method, type, url, thirdParty, graphql }, c)

  const call = graphql && decisiveCall(graphql, c.readVerbs)
  const variables = call && typeof call.variables === 'object' ? bodyEntries({ type: 'json', value: call.variables }) : []
  const entries = call ? variables : body.type === 'none' ? (query ?? []) : bodyEntries(body)
  const length = Number(headerOf(facts.headers, 'content-length'))
  const bytes = facts.postData !== undefined ? byteLength(facts.postData) : Number.isInteger(length) && length >= 0 ? length : undefined
  const request: HeldRequest = {
    method: method.slice(0, 16),
    ...describeUrl(facts.url, url, redact),
    kind: kindOf(type, READ_METHODS.has(method)),
    fields: fieldsOf(entries, redact),
    ...(call ? { operation: operationOf(call, c) } : {}),
    ...(bytes !== undefined ? { bytes } : {}),
    ...(thirdParty !== undefined ? { thirdParty } : {}),
  }
  return { verdict, reason, request }
}

/** A persisted operation has no type of its own: it is shown as what its name says, a query or a possible write. */
function operationOf(call: GraphqlCall, c: Compiled): NonNullable<HeldRequest['operation']> {
  const type = call.type ?? (isReadName(call.name, c.readVerbs) ? 'query' : 'mutation')
  return { type, ...(call.name ? { name: call.name.slice(0, 200) } : {}) }
}

/** The site (registrable domain) of an address, as the rules tell sites apart: a key for per-site choices. */
export function siteOf(url: string, rules: WriteRules = DEFAULT_WRITE_RULES): string | undefined {
  const parsed = parse(url)
  return parsed && /^(https?|wss?):$/.test(parsed.protocol) ? registrableDomain(parsed.hostname, compile(rules).suffixes) : undefined
}

import type { GraphqlCall } from './graphql'
import type { HarmlessKind } from './harmless-kind'
import type { CompiledHarmlessRules } from './harmless-rules-schema'
import { isRecord, type ParsedBody } from './request-body'
import { decode, lastSegment, pathWords, wordsOf } from './request-url'
import { keysOf, sendsField, sentBody, sentQuery, type Sent } from './request-values'
import { findKeyword } from './risk-rules'

/**
 * Which writes are harmless, told apart by what the request is (its path, its method and the shape of what it
 * sends), never by the label of what was clicked: a site's own analytics sent through its domain, a cart line
 * added or its quantity changed, an item saved to a wishlist, a UI preference, an autosaved draft, "is typing".
 * Known SDKs and platforms are matched by the signatures of harmless-rules.json (a path and the fields they always
 * send); other sites by their path's words and a body that says nothing more than the kind does. Pure code.
 *
 * Only a request to the page's own site can be harmless: one to another site, or from a page not known, is judged
 * as before (a vendor's telemetry host is dropped by the write rules, never let through).
 */

export interface HarmlessFacts {
  /** Uppercase. */
  method: string
  /** CDP's resource type ('XHR', 'Fetch', 'Ping', …). */
  type: string
  url: URL
  thirdParty: boolean | undefined
  contentType: string
  body: ParsedBody
  postData?: string
}

const WEB = new Set(['http:', 'https:'])
const WRITES = new Set(['POST', 'PUT', 'PATCH'])
const ADDS = new Set(['POST', 'PUT'])
// Keys whose value names what a request does ({ action: 'remove' }, ?op=delete): read for words that undo a kind.
const ACTION_KEYS = new Set(['action', 'act', 'op', 'operation', 'method', 'cmd', 'command', 'type', 'mode', 'do'])
const STATUS_KEYS = new Set(['status', 'state', 'post_status', 'poststatus', 'action', 'op', 'operation'])

/** What a request sends, read once for every check. */
interface Reading {
  facts: HarmlessFacts
  body: Sent | undefined
  query: Sent
  /** Every key the body sends (nested too) and every query name. */
  keys: string[]
  /** The path's words. */
  words: string
  /** The path's words with the action a query or body names: what vetoes look in. */
  acts: string
}

function read(facts: HarmlessFacts): Reading {
  const body = sentBody(facts.body, facts.postData)
  const query = sentQuery(facts.url)
  const raw = facts.body.type === 'json' ? facts.body.value : body
  const keys = [...keysOf(raw), ...Object.keys(query)]
  const words = pathWords(facts.url.pathname)
  const named = [...Object.entries(query), ...Object.entries(body ?? {})]
    .filter(([key, value]) => ACTION_KEYS.has(key.toLowerCase()) && typeof value === 'string' && value.length <= 60)
    .map(([, value]) => wordsOf(value as string))
  return { facts, body, query, keys, words, acts: [words, ...named].join(' ') }
}

const hasKey = (keys: readonly string[], words: readonly string[]) => keys.some((key) => !!findKeyword(wordsOf(key), words))

/** The harmless kind of a write, or undefined when it is not one (or is not known to be). */
export function harmlessKindOf(facts: HarmlessFacts, c: CompiledHarmlessRules): HarmlessKind | undefined {
  if (facts.thirdParty !== false || !WEB.has(facts.url.protocol)) return undefined
  const r = read(facts)
  // A password or a card number is never sent by anything harmless, whatever the endpoint looks like.
  if (hasKey(r.keys, c.rules.vetoKeys)) return undefined
  const path = decode(facts.url.pathname)
  const signed = c.signatures.find(
    ({ signature, methods, path: pattern }) =>
      methods.has(facts.method) &&
      pattern.test(path) &&
      signature.fields.every((group) => group.some((spec) => sendsField(spec, r.body, r.query))) &&
      !signature.without.some((spec) => sendsField(spec, r.body, r.query)),
  )
  if (signed) return staysHarmless(signed.signature.kind, r.body, r.keys, c) ? signed.signature.kind : undefined
  const kind = isPresence(r, c) ? 'presence' : isDraft(r, c) ? 'draft' : isCartChange(r, c) ? 'cart' : isWishlistAdd(r, c) ? 'wishlist' : isPreference(r, c) ? 'preference' : undefined
  return kind && staysHarmless(kind, r.body, r.keys, c) ? kind : undefined
}

/**
 * The harmless kind of a GraphQL request: every call in it that writes is an operation the rules name, all of one
 * kind (Shopify's cartLinesAdd), and its variables say nothing that undoes it (a quantity of 0 removes a line).
 */
export function harmlessOperationKind(
  calls: readonly GraphqlCall[],
  writes: (call: GraphqlCall) => boolean,
  thirdParty: boolean | undefined,
  c: CompiledHarmlessRules,
): HarmlessKind | undefined {
  if (thirdParty !== false) return undefined
  const writing = calls.filter(writes)
  const kinds = new Set(writing.map((call) => (call.name ? c.operations.get(call.name) : undefined)))
  const [kind] = kinds
  if (!writing.length || kinds.size !== 1 || !kind) return undefined
  return writing.every((call) => {
    const keys = keysOf(call.variables, 5)
    const variables = isRecord(call.variables) ? call.variables : undefined
    return !hasKey(keys, c.rules.vetoKeys) && staysHarmless(kind, variables, keys, c)
  })
    ? kind
    : undefined
}

/** What undoes a kind whatever matched it: a cart line set to 0 or a coupon sent, a draft sent with a published status. */
function staysHarmless(kind: HarmlessKind, body: Sent | undefined, keys: readonly string[], c: CompiledHarmlessRules): boolean {
  if (kind === 'cart') return !hasKey(keys, c.rules.cartVetoKeys) && quantities(body, c).every((n) => n > 0)
  if (kind === 'draft') return !publishes(body, c)
  return true
}

/** Every quantity a body sends, however nested: a key named for one, or the values under one (Shopify's updates). */
function quantities(body: Sent | undefined, c: CompiledHarmlessRules): number[] {
  const found: number[] = []
  const isQuantity = (key: string) => !!findKeyword(wordsOf(key), c.rules.quantityKeys) || /^updates(?:\[|$)/i.test(key)
  const walk = (value: unknown, counted: boolean, depth: number) => {
    if (depth > 6 || found.length > 500) return
    if (Array.isArray(value)) return value.slice(0, 100).forEach((item) => walk(item, counted, depth + 1))
    if (isRecord(value)) {
      for (const [key, inner] of Object.entries(value)) walk(inner, counted || isQuantity(key), depth + 1)
      return
    }
    if (!counted) return
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN
    // A quantity that is not a number is not one we can vouch for: it counts as 0.
    found.push(Number.isFinite(n) ? n : 0)
  }
  walk(body, false, 0)
  return found
}

function publishes(body: Sent | undefined, c: CompiledHarmlessRules): boolean {
  const walk = (value: unknown, depth: number): boolean =>
    isRecord(value) &&
    depth <= 2 &&
    Object.entries(value).some(([key, inner]) =>
      typeof inner === 'string' ? STATUS_KEYS.has(key.toLowerCase()) && c.publishedStatuses.has(inner.trim().toLowerCase()) : walk(inner, depth + 1),
    )
  return walk(body, 0)
}

/** "Is typing", a heartbeat, a ping: a presence path sent nothing but a time or a focus flag. */
function isPresence(r: Reading, c: CompiledHarmlessRules): boolean {
  const last = lastSegment(r.facts.url.pathname)
  if (!ADDS.has(r.facts.method) || !last || !(c.presencePaths.has(last.name) || c.presencePaths.has(last.bare))) return false
  if (r.facts.body.type === 'none') return true
  return !!r.body && r.facts.body.type !== 'opaque' && Object.keys(r.body).every((key) => c.presenceKeys.has(key.toLowerCase()))
}

/** An autosave: a draft path with no word of sending or publishing, and no published status in the body. */
function isDraft(r: Reading, c: CompiledHarmlessRules): boolean {
  if (!WRITES.has(r.facts.method) || (r.facts.body.type !== 'none' && !r.body)) return false
  return !!findKeyword(r.words, c.rules.draftPathWords) && !findKeyword(r.acts, c.rules.draftVetoWords)
}

/** A line added to a cart or its quantity changed: a cart path, no checkout or removal, a positive quantity sent. */
function isCartChange(r: Reading, c: CompiledHarmlessRules): boolean {
  if (!WRITES.has(r.facts.method) || !findKeyword(r.words, c.rules.cartPathWords) || findKeyword(r.acts, c.rules.cartVetoWords)) return false
  const sent = quantities(r.body, c)
  return sent.length > 0 && sent.every((n) => n > 0 && Number.isInteger(n))
}

/** An item saved to a wishlist or favourites: the path says both the list and the adding. */
function isWishlistAdd(r: Reading, c: CompiledHarmlessRules): boolean {
  if (!ADDS.has(r.facts.method) || !findKeyword(r.words, c.rules.wishlistPathWords) || !findKeyword(r.words, c.rules.wishlistAddWords)) return false
  return !findKeyword(r.acts, c.rules.wishlistVetoWords) && (r.facts.body.type === 'none' || !!r.body)
}

/** A UI setting: a settings path, and a body whose every key is a UI setting (theme, locale, a collapsed sidebar). */
function isPreference(r: Reading, c: CompiledHarmlessRules): boolean {
  if (!WRITES.has(r.facts.method) || !r.body) return false
  if (!findKeyword(r.words, c.rules.preferencePathWords) || findKeyword(r.acts, c.rules.preferenceVetoWords)) return false
  return onlyUiSettings(r.body, c)
}

const SCALAR = new Set(['string', 'number', 'boolean'])
const isSetting = (value: unknown, c: CompiledHarmlessRules) => {
  const plain = (v: unknown) => SCALAR.has(typeof v) && String(v).length <= 200 && !findKeyword(String(v), c.rules.preferenceVetoValues)
  return value === null || plain(value) || (Array.isArray(value) && value.length <= 50 && value.every(plain))
}

/** Whether a key is made of UI words only ("sidebar_collapsed", "colorMode", "per_page"), at least one not a filler. */
function isUiKey(words: readonly string[], c: CompiledHarmlessRules): boolean {
  return words.length > 0 && words.every((w) => c.uiWords.has(w) || c.uiFillerWords.has(w)) && words.some((w) => c.uiWords.has(w))
}

function onlyUiSettings(body: Sent, c: CompiledHarmlessRules): boolean {
  // { name: 'theme', value: 'dark' }: one setting named by value.
  const named = ['name', 'key', 'setting', 'preference', 'pref'].find((key) => typeof body[key] === 'string')
  if (named && 'value' in body) {
    const rest = Object.keys(body).filter((key) => key !== named && key !== 'value' && !c.formKeys.has(key.toLowerCase()))
    return !rest.length && isSetting(body.value, c) && isUiKey(wordsOf(body[named] as string).split(' '), c)
  }
  let settings = 0
  const walk = (object: Sent, prefix: string[], depth: number): boolean =>
    Object.entries(object).every(([key, value]) => {
      if (!prefix.length && c.formKeys.has(key.toLowerCase())) return true
      // A form's user[theme_id] is the key theme_id inside user.
      const parts = key.split(/[[\]]+/).filter(Boolean)
      while (parts.length > 1 && c.containerKeys.has(parts[0]!.toLowerCase())) parts.shift()
      const words = [...prefix, ...parts.flatMap((part) => (c.containerKeys.has(part.toLowerCase()) ? [] : wordsOf(part).split(' ')))].filter(Boolean)
      if (isRecord(value)) return depth < 3 && (c.containerKeys.has(key.toLowerCase()) || isUiKey(words, c)) && walk(value, words, depth + 1)
      settings++
      return isSetting(value, c) && isUiKey(words, c)
    })
  return walk(body, [], 0) && settings > 0
}

import { z } from 'zod'
import { HarmlessKind } from './harmless-kind'
import data from './harmless-rules.json'
import { compiles } from './pattern'

/**
 * The data harmless writes are told apart by (harmless-rules.json), checked on load like the write rules, so a
 * deployment can add its own endpoints (a site's own analytics proxy, its shop's cart API) and a bad entry fails
 * loudly instead of letting a write go without a question.
 */

const Words = z.array(z.string().min(1).max(200)).max(5000).default([])

const Pattern = z.string().min(1).max(500).refine(compiles, 'not a regular expression')

/**
 * A field a request must send: "name" (present and not empty), "a.b" (into an object, the first item of a list,
 * or JSON or base64 JSON sent as text), "name=pattern" (its value matches). Looked up in the body, then the query;
 * a form's "updates[12]" is found as "updates".
 */
const Field = z
  .string()
  .min(1)
  .max(300)
  .refine((spec) => !spec.includes('=') || compiles(spec.slice(spec.indexOf('=') + 1)), 'not a regular expression after "="')

/** One known endpoint: its path and the fields its SDK or platform always sends. */
export const HarmlessSignature = z.strictObject({
  kind: HarmlessKind,
  /** Who sends it ("Plausible", "Shopify cart"), for people reading the data. */
  name: z.string().min(1).max(100),
  methods: z.array(z.string().min(1).max(16)).min(1).max(10).default(['POST']),
  /** A regular expression on the decoded path ("^/" for any, when the query names the endpoint). */
  path: Pattern,
  /** Groups of fields: the request must send one field of every group. */
  fields: z.array(z.array(Field).min(1).max(30)).max(20).default([]),
  /** Fields that make the request something else (PrestaShop's "delete"). */
  without: z.array(Field).max(50).default([]),
})
export type HarmlessSignature = z.output<typeof HarmlessSignature>

export const HarmlessRules = z.strictObject({
  signatures: z.array(HarmlessSignature).max(2000).default([]),
  /** GraphQL operations, by exact name, that are a harmless kind (Shopify Storefront's cartLinesAdd). */
  graphqlOperations: z.array(z.strictObject({ name: z.string().regex(/^[_A-Za-z][_0-9A-Za-z]{0,199}$/), kind: HarmlessKind })).max(2000).default([]),
  /** Words of a body key that make no write harmless (a password, a card number). */
  vetoKeys: Words,
  /** Path words of a cart endpoint, words that make it something else (checkout, remove), and keys that do. */
  cartPathWords: Words,
  cartVetoWords: Words,
  cartVetoKeys: Words,
  /** Words of a key holding a cart line's quantity: one at 0 removes the line. */
  quantityKeys: Words,
  wishlistPathWords: Words,
  /** A wishlist path must also say it adds ("/wishlist/add"). */
  wishlistAddWords: Words,
  wishlistVetoWords: Words,
  preferencePathWords: Words,
  preferenceVetoWords: Words,
  /** Values that make a UI-looking key say who sees something ({ view: 'public' }): not a preference then. */
  preferenceVetoValues: Words,
  /** Words a UI setting's key is made of ("sidebar_collapsed", "colorMode"), and words that may come with them. */
  uiWords: Words,
  uiFillerWords: Words,
  /** Keys that only wrap settings ({ preferences: { theme } }, user[theme]). */
  containerKeys: Words,
  /** Keys a form sends with any setting (CSRF tokens, Rails' _method). */
  formKeys: Words,
  draftPathWords: Words,
  draftVetoWords: Words,
  /** Values of a status or action key that make a save a publication ("publish", "sent"). */
  publishedStatuses: Words,
  /** Last path segments of presence calls ("typing", "heartbeat"). */
  presencePaths: Words,
  /** The only keys a presence call may send. */
  presenceKeys: Words,
})
export type HarmlessRules = z.output<typeof HarmlessRules>
export type HarmlessRulesInput = z.input<typeof HarmlessRules>

export const DEFAULT_HARMLESS_RULES: HarmlessRules = HarmlessRules.parse(data)

/** Two sets of harmless rules as one: every entry of both, each once. */
export function mergeHarmlessRules(base: HarmlessRules, more: HarmlessRules): HarmlessRules {
  const merged = Object.fromEntries(
    Object.entries(base).map(([key, list]) => {
      const extra = more[key as keyof HarmlessRules] as readonly unknown[]
      const seen = new Set((list as readonly unknown[]).map((item) => JSON.stringify(item)))
      return [key, [...(list as readonly unknown[]), ...extra.filter((item) => !seen.has(JSON.stringify(item)))]]
    }),
  )
  return HarmlessRules.parse(merged)
}

/** A signature with its patterns compiled. */
export interface CompiledSignature {
  signature: HarmlessSignature
  methods: Set<string>
  path: RegExp
}

/** The harmless rules in the shapes the classifier looks things up in. */
export interface CompiledHarmlessRules {
  rules: HarmlessRules
  signatures: CompiledSignature[]
  operations: Map<string, HarmlessKind>
  presencePaths: Set<string>
  presenceKeys: Set<string>
  containerKeys: Set<string>
  formKeys: Set<string>
  uiWords: Set<string>
  uiFillerWords: Set<string>
  publishedStatuses: Set<string>
}

const lower = (list: readonly string[]) => list.map((word) => word.toLowerCase())

export function compileHarmlessRules(rules: HarmlessRules): CompiledHarmlessRules {
  return {
    rules,
    signatures: rules.signatures.map((signature) => ({
      signature,
      methods: new Set(signature.methods.map((m) => m.toUpperCase())),
      path: new RegExp(signature.path, 'i'),
    })),
    operations: new Map(rules.graphqlOperations.map(({ name, kind }) => [name, kind])),
    presencePaths: new Set(lower(rules.presencePaths)),
    presenceKeys: new Set(lower(rules.presenceKeys)),
    containerKeys: new Set(lower(rules.containerKeys)),
    formKeys: new Set(lower(rules.formKeys)),
    uiWords: new Set(lower(rules.uiWords)),
    uiFillerWords: new Set(lower(rules.uiFillerWords)),
    publishedStatuses: new Set(lower(rules.publishedStatuses)),
  }
}

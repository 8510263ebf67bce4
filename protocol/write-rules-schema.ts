import { z } from 'zod'
import data from './write-rules.json'
import { compileHarmlessRules, DEFAULT_HARMLESS_RULES, HarmlessRules, mergeHarmlessRules, type CompiledHarmlessRules } from './harmless-rules-schema'
import { HIGH_KEYWORDS } from './risk-rules'

/**
 * The data the request classification runs on (write-rules.json), checked on load, so a deployment can add its
 * own entries with `extendWriteRules` and a bad file fails loudly instead of letting writes through.
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
  /** First words of a URL's last segment that make it a read ("/getPayInfo", "/delete/check"). */
  urlReadVerbs: Words,
  /** Last words of a URL's last segment that make it a read ("/pay/status", "/payResult"; not "list": "deleteList"). */
  urlReadNouns: Words,
  /** High-risk label words that in a URL name a page, not an act ("/post/123", "/jobs/apply"). */
  urlNeutralWords: Words,
  /** Query parameters whose value names the action (?action=delete, ThinkPHP's ?a=del, JD's ?functionId=). */
  actionParams: Words,
  /** First words of a persisted GraphQL operation's name that mean it reads ("GetViewer", "ListRepos"). */
  graphqlReadVerbs: Words,
  /** Public suffixes of more than one label ("co.uk", "com.cn", "github.io"), for telling sites apart. */
  multiPartSuffixes: Words,
  /** What makes a write harmless (harmless-rules.json): known endpoints and the words of the rest. */
  harmless: HarmlessRules.prefault({}),
})
export type WriteRules = z.output<typeof WriteRules>
export type WriteRulesInput = z.input<typeof WriteRules>

export const DEFAULT_WRITE_RULES: WriteRules = WriteRules.parse({ ...data, harmless: DEFAULT_HARMLESS_RULES })

type WordLists = Omit<WriteRules, 'harmless'>

/**
 * The default rules with more entries added (a deployment's own telemetry hosts, its shop's cart endpoint under
 * `harmless`, say); nothing is taken away.
 */
export function extendWriteRules(extra: WriteRulesInput, base: WriteRules = DEFAULT_WRITE_RULES): WriteRules {
  const { harmless, ...more } = WriteRules.parse(extra)
  const { harmless: baseHarmless, ...lists } = base
  const merged = Object.fromEntries(
    Object.entries(lists).map(([key, list]) => [key, [...new Set([...list, ...more[key as keyof WordLists]])]]),
  )
  return WriteRules.parse({ ...merged, harmless: mergeHarmlessRules(baseHarmless, harmless) })
}

/** The rules in the shapes the classification looks things up in, built once per rules object. */
export interface CompiledWriteRules {
  rules: WriteRules
  suffixes: Set<string>
  /** The high-risk label words, less the neutral ones, and the URL words. */
  urlWords: string[]
  /** Everything that makes a path a write: the high-risk words, the URL words and the write words. */
  writeWords: string[]
  urlReadVerbs: Set<string>
  urlReadNouns: Set<string>
  actionParams: Set<string>
  telemetryPaths: Set<string>
  readVerbs: Set<string>
  harmless: CompiledHarmlessRules
}

const compiledRules = new WeakMap<WriteRules, CompiledWriteRules>()
const lower = (list: readonly string[]) => list.map((word) => word.toLowerCase())

export function compileWriteRules(rules: WriteRules): CompiledWriteRules {
  let compiled = compiledRules.get(rules)
  if (!compiled) {
    const neutral = new Set(lower(rules.urlNeutralWords))
    const urlWords = [...HIGH_KEYWORDS.filter((word) => !neutral.has(word)), ...lower(rules.urlWords)]
    compiled = {
      rules,
      suffixes: new Set(lower(rules.multiPartSuffixes)),
      urlWords,
      writeWords: [...new Set([...HIGH_KEYWORDS, ...urlWords, ...lower(rules.writeWords)])],
      urlReadVerbs: new Set(lower(rules.urlReadVerbs)),
      urlReadNouns: new Set(lower(rules.urlReadNouns)),
      actionParams: new Set(lower(rules.actionParams)),
      telemetryPaths: new Set(lower(rules.telemetryPaths)),
      readVerbs: new Set(lower(rules.graphqlReadVerbs)),
      harmless: compileHarmlessRules(rules.harmless),
    }
    compiledRules.set(rules, compiled)
  }
  return compiled
}

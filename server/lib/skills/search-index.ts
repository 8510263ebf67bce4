import { count, create, insert, remove, search } from '@orama/orama'
import type { Skill, SkillSearchResult, SkillSummary } from '#protocol'
import { hostKeys, siteKey } from './site-match'
import { toSummary } from './summary'
import { skillTokenizer } from './tokenizer'

const schema = {
  name: 'string',
  /** A skill's name and description in Chinese, apart: joined to the English they would dilute both. */
  nameZh: 'string',
  description: 'string',
  descriptionZh: 'string',
  tags: 'string',
  sites: 'string',
  body: 'string',
  /** siteKey of each pattern: filtering happens inside Orama, so it scales with the library. */
  siteKeys: 'enum[]',
} as const

// A skill's name and tags say what it is for; the body mentions many things in passing.
const BOOST = { name: 3, nameZh: 3, tags: 2.5, description: 2, descriptionZh: 2, sites: 1.5, body: 1 }
const TEXT = Object.keys(BOOST) as (keyof typeof BOOST)[]
const DEFAULT_LIMIT = 5

export interface SkillSearchOptions {
  /** A hostname or URL: only skills written for that site (or a parent domain of it). */
  site?: string
  limit?: number
}

export interface SkillIndex {
  readonly size: number
  search(query: string, options?: SkillSearchOptions): SkillSearchResult[]
  /** Adds a skill, or replaces the one with the same slug. */
  add(skill: Skill): void
  get(slug: string): Skill | undefined
  /** Every skill, by slug. */
  list(): SkillSummary[]
}

// Orama returns a promise only when a component is async; ours are all sync, so a promise is a bug.
function sync<T>(value: T | Promise<T>): T {
  if (value instanceof Promise) throw new Error('the skills index went async')
  return value
}

// Dots kept "mail.google.com" one token; its labels are what people type ("google", "mail").
const siteWords = (sites: string[]) => sites.flatMap((s) => siteKey(s).split('.')).join(' ')

const toResult = (skill: Skill, score: number): SkillSearchResult => ({
  slug: skill.slug,
  name: skill.name,
  description: skill.description,
  ...(skill['name-zh'] ? { nameZh: skill['name-zh'] } : {}),
  ...(skill['description-zh'] ? { descriptionZh: skill['description-zh'] } : {}),
  sites: skill.sites,
  tags: skill.tags,
  risk: skill.risk,
  scripted: !!skill.script?.length,
  score,
  ...(skill.parameters?.length ? { parameters: skill.parameters } : {}),
  ...(skill['start-url'] ? { startUrl: skill['start-url'] } : {}),
  ...(skill.own ? { own: true } : {}),
})

/** A name as people type it: case, spacing and the quotes around it do not matter. */
const nameKey = (text: string) => text.trim().replace(/^["'“”‘’「」]+|["'“”‘’「」]+$/g, '').replace(/\s+/g, ' ').toLowerCase()
const namesOf = (skill: Skill) => [skill.name, skill['name-zh']].filter((n): n is string => !!n).map(nameKey)

/** An Orama full-text index over skills, tokenized for Chinese, English and mixed text. */
export function createSkillIndex(skills: Skill[] = []): SkillIndex {
  const bySlug = new Map<string, Skill>()
  /** slugs by siteKey: Orama scores every document for an empty term (seconds at 10k), a map does not. */
  const bySite = new Map<string, Set<string>>()
  /** slug by each of its names: a query that is a skill's whole name finds that skill first, whatever else shares its words. */
  const byName = new Map<string, string>()
  const db = create({ schema, components: { tokenizer: skillTokenizer } })

  function add(skill: Skill) {
    const old = bySlug.get(skill.slug)
    if (old) {
      sync(remove(db, skill.slug))
      for (const key of old.sites.map(siteKey)) bySite.get(key)?.delete(skill.slug)
      for (const name of namesOf(old)) if (byName.get(name) === skill.slug) byName.delete(name)
    }
    bySlug.set(skill.slug, skill)
    for (const name of namesOf(skill)) if (!byName.has(name)) byName.set(name, skill.slug)
    for (const key of skill.sites.map(siteKey)) bySite.set(key, (bySite.get(key) ?? new Set()).add(skill.slug))
    sync(
      insert(db, {
        id: skill.slug,
        name: skill.name,
        // Left out, not empty, when a skill has none: Orama averages a field's length over the documents that have it.
        ...(skill['name-zh'] ? { nameZh: skill['name-zh'] } : {}),
        description: skill.description,
        ...(skill['description-zh'] ? { descriptionZh: skill['description-zh'] } : {}),
        tags: skill.tags.join(' '),
        sites: siteWords(skill.sites),
        body: skill.body,
        siteKeys: skill.sites.map(siteKey),
      }),
    )
  }
  for (const skill of skills) add(skill)

  /** No query: the site's skills, the most specific patterns first (shop.example.com before example.com). */
  function browse(site: string | undefined, limit: number): SkillSearchResult[] {
    const slugs = site ? new Set(hostKeys(site).flatMap((key) => [...(bySite.get(key) ?? [])])) : bySlug.keys()
    const out: SkillSearchResult[] = []
    for (const slug of slugs) {
      if (out.length >= limit) break
      out.push(toResult(bySlug.get(slug)!, 0))
    }
    return out
  }

  return {
    get size() {
      return sync(count(db))
    },
    add,
    get: (slug) => bySlug.get(slug),
    list: () => [...bySlug.values()].sort((a, b) => a.slug.localeCompare(b.slug)).map(toSummary),
    search(query, { site, limit = DEFAULT_LIMIT } = {}) {
      if (!query.trim()) return browse(site, limit)
      const found = sync(
        search(db, {
          term: query.trim(),
          properties: TEXT,
          boost: BOOST,
          where: site ? { siteKeys: { containsAny: hostKeys(site) } } : undefined,
          limit,
        }),
      )
      const results = found.hits.flatMap((hit) => {
        const skill = bySlug.get(hit.id)
        return skill ? [toResult(skill, hit.score)] : []
      })
      const named = bySlug.get(byName.get(nameKey(query)) ?? '')
      if (!named || (site && !named.sites.map(siteKey).some((key) => hostKeys(site).includes(key)))) return results
      const top = Math.max(0, ...results.map((r) => r.score))
      return [toResult(named, top), ...results.filter((r) => r.slug !== named.slug)].slice(0, limit)
    },
  }
}

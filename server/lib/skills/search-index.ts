import { create, insertMultiple, search } from '@orama/orama'
import type { Skill, SkillSearchResult } from '#protocol'
import { hostOf, siteMatches } from './site-match'
import { skillTokenizer } from './tokenizer'

const schema = { slug: 'string', name: 'string', description: 'string', tags: 'string', sites: 'string', body: 'string' } as const

export interface SkillIndex {
  readonly size: number
  search(query: string, options?: { site?: string; limit?: number }): SkillSearchResult[]
  get(slug: string): Skill | undefined
}

const toResult = (skill: Skill, score: number): SkillSearchResult => ({
  slug: skill.slug,
  name: skill.name,
  description: skill.description,
  sites: skill.sites,
  tags: skill.tags,
  risk: skill.risk,
  score,
})

/** An Orama full-text index over skills, tokenized for Chinese and English alike. */
export function createSkillIndex(skills: Skill[]): SkillIndex {
  const bySlug = new Map(skills.map((s) => [s.slug, s]))
  const db = create({ schema, components: { tokenizer: skillTokenizer as never } })
  insertMultiple(
    db,
    skills.map((s) => ({ slug: s.slug, name: s.name, description: s.description, tags: s.tags.join(' '), sites: s.sites.join(' '), body: s.body })),
  )
  const onSite = (skill: Skill, site?: string) => !site || skill.sites.some((p) => siteMatches(p, hostOf(site)))

  return {
    size: skills.length,
    get: (slug) => bySlug.get(slug),
    search(query, { site, limit = 5 } = {}) {
      if (!query.trim()) return skills.filter((s) => onSite(s, site)).slice(0, limit).map((s) => toResult(s, 0))
      const found = search(db, {
        term: query,
        properties: ['name', 'description', 'tags', 'sites', 'body'],
        boost: { name: 3, tags: 2.5, description: 2, sites: 1.5, body: 1 },
        limit: site ? Math.max(limit * 10, 50) : limit,
      }) as { hits: { document: { slug: string }; score: number }[] }
      return found.hits
        .map((hit) => ({ skill: bySlug.get(hit.document.slug)!, score: hit.score }))
        .filter(({ skill }) => skill && onSite(skill, site))
        .slice(0, limit)
        .map(({ skill, score }) => toResult(skill, score))
    },
  }
}

import { z } from 'zod'
import { ActionType, Risk } from './action'
import { ScriptStep } from './action-form'

const list = (max: number) => z.array(z.string().min(1).max(max)).max(100)

/** A hostname (covers its subdomains too) or a `*.example.com` glob; no scheme, path or port. */
export const SitePattern = z
  .string()
  .max(253)
  .regex(/^(\*\.)?([a-z0-9-]+\.)*[a-z0-9-]+$/i, 'a hostname like example.com or a glob like *.example.com')
  .transform((s) => s.toLowerCase())

/** The YAML frontmatter of skills/<slug>/SKILL.md. */
export const SkillFrontmatter = z.strictObject({
  name: z.string().min(1).max(200),
  description: z.string().min(1).max(2000),
  /** The sites the procedure is written for; empty for a procedure that works on any site. */
  sites: z.array(SitePattern).max(100).default([]),
  tags: list(100).default([]),
  /** The procedure's overall risk: what the worst step can do. */
  risk: Risk.default('medium'),
  'allowed-actions': z.array(z.union([ActionType, z.enum(['ask_user', 'done'])])).max(20).default([]),
  /** Steps that always need the person's approval. */
  'risky-steps': list(500).default([]),
  /** A replayable script (targets by selector or text) for running the procedure without an LLM. */
  script: z.array(ScriptStep).min(1).max(500).optional(),
})
export type SkillFrontmatter = z.output<typeof SkillFrontmatter>

export const SkillSlug = z.string().min(1).max(128).regex(/^[a-z0-9][a-z0-9-]*$/, 'a skill slug')

/** A whole skill: frontmatter, the folder name as slug, and the markdown SOP. */
export const Skill = SkillFrontmatter.extend({ slug: SkillSlug, body: z.string() })
export type Skill = z.output<typeof Skill>

/** A skill as a list shows it: everything but the script and the full body. */
export const SkillSummary = SkillFrontmatter.omit({ script: true }).extend({
  slug: SkillSlug,
  /** The start of the SOP in plain text. */
  excerpt: z.string().max(300),
  /** Whether the skill carries a script that can run without an LLM. */
  scripted: z.boolean(),
})
export type SkillSummary = z.output<typeof SkillSummary>

export const SkillSearchResult = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  sites: z.array(z.string()),
  tags: z.array(z.string()),
  risk: Risk,
  /** Whether the skill carries a script that can run without an LLM. */
  scripted: z.boolean(),
  score: z.number(),
})
export type SkillSearchResult = z.infer<typeof SkillSearchResult>

import { z } from 'zod'
import { ActionType, Risk } from './action'
import { ScriptStep } from './action-form'

const list = (max: number) => z.array(z.string().min(1).max(max)).max(100)

/** The YAML frontmatter of skills/<slug>/SKILL.md. */
export const SkillFrontmatter = z.strictObject({
  name: z.string().min(1).max(200),
  description: z.string().min(1).max(2000),
  /** Hostnames, or globs like *.example.com, the procedure applies to. */
  sites: list(253).default([]),
  tags: list(100).default([]),
  risk: Risk.default('medium'),
  'allowed-actions': z.array(z.union([ActionType, z.enum(['ask_user', 'done'])])).max(20).default([]),
  /** Steps that always need the person's approval. */
  'risky-steps': list(500).default([]),
  /** A replayable script (targets by selector or text) for running the procedure without an LLM. */
  script: z.array(ScriptStep).max(500).optional(),
})
export type SkillFrontmatter = z.output<typeof SkillFrontmatter>

export const SkillSlug = z.string().min(1).max(128).regex(/^[a-z0-9][a-z0-9-]*$/, 'a skill slug')

export const Skill = SkillFrontmatter.extend({ slug: SkillSlug, body: z.string() })
export type Skill = z.output<typeof Skill>

export const SkillSearchResult = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  sites: z.array(z.string()),
  tags: z.array(z.string()),
  risk: Risk,
  score: z.number(),
})
export type SkillSearchResult = z.infer<typeof SkillSearchResult>

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

/** The name of a value a skill asks for at run time, written `{{name}}` in its script. */
export const SkillParameterName = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'a parameter name (lowercase letters, digits and _)')

/** A value the person typed when the skill was recorded, asked for again (never kept) when it runs. */
export const SkillParameter = z.strictObject({
  name: SkillParameterName,
  /** What the field was called on the page, for the person filling it in. */
  label: z.string().min(1).max(200),
})
export type SkillParameter = z.infer<typeof SkillParameter>

const httpUrl = z
  .string()
  .max(8192)
  .refine((u) => URL.canParse(u) && ['http:', 'https:'].includes(new URL(u).protocol), 'an http(s) URL')

/** The YAML frontmatter of skills/<slug>/SKILL.md. */
export const SkillFrontmatter = z.strictObject({
  name: z.string().min(1).max(200),
  description: z.string().min(1).max(2000),
  /** The name and description in Chinese, for a skill written in English: shown to a Chinese reader and searched too. */
  'name-zh': z.string().min(1).max(200).optional(),
  'description-zh': z.string().min(1).max(2000).optional(),
  /**
   * The Chinese for English words its steps say (their reasons, its risky steps), for a skill written in English,
   * one `- {"English": "中文"}` a line: a Chinese reader's card and timeline say "发送留言" where the step's reason is
   * "send the message".
   */
  'words-zh': z.array(z.record(z.string().min(1).max(2000), z.string().min(1).max(2000))).max(500).optional(),
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
  /** The values the script takes as `{{name}}`, filled in by the person each time it runs. */
  parameters: z.array(SkillParameter).max(50).optional(),
  /**
   * Where the procedure starts: a task opens it first unless its script begins by navigating. A path (`/demo/`)
   * is a page of the Tandem server itself, wherever it listens.
   */
  'start-url': z.union([httpUrl, z.string().max(2000).regex(/^\/(?!\/)[^\s\\]*$/, 'an http(s) URL or a path on the Tandem server')]).optional(),
})
export type SkillFrontmatter = z.output<typeof SkillFrontmatter>

export const SkillSlug = z.string().min(1).max(128).regex(/^[a-z0-9][a-z0-9-]*$/, 'a skill slug')

/** A whole skill: frontmatter, the folder name as slug, and the markdown SOP. */
export const Skill = SkillFrontmatter.extend({
  slug: SkillSlug,
  body: z.string(),
  /** Saved by the person (in the data dir), not shipped with Tandem. Set by the loader, never by the file. */
  own: z.boolean().optional(),
})
export type Skill = z.output<typeof Skill>

/** A skill as a list shows it: everything but the script and the full body. */
export const SkillSummary = SkillFrontmatter.omit({ script: true }).extend({
  slug: SkillSlug,
  /** The start of the SOP in plain text. */
  excerpt: z.string().max(300),
  /** Whether the skill carries a script that can run without an LLM. */
  scripted: z.boolean(),
  own: z.boolean().optional(),
})
export type SkillSummary = z.output<typeof SkillSummary>

export const SkillSearchResult = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  /** The skill's `name-zh` and `description-zh`, when it has them. */
  nameZh: z.string().optional(),
  descriptionZh: z.string().optional(),
  sites: z.array(z.string()),
  tags: z.array(z.string()),
  risk: Risk,
  /** Whether the skill carries a script that can run without an LLM. */
  scripted: z.boolean(),
  score: z.number(),
  /** What the person fills in before it runs. */
  parameters: z.array(SkillParameter).optional(),
  startUrl: z.string().optional(),
  own: z.boolean().optional(),
})
export type SkillSearchResult = z.infer<typeof SkillSearchResult>

/** A skill as any list carries it: its frontmatter's `name-zh` or a search result's `nameZh`. */
interface NamedSkill {
  name: string
  description: string
  nameZh?: string
  descriptionZh?: string
  'name-zh'?: string
  'description-zh'?: string
}

/** A skill's name in the reader's language: the Chinese one for a Chinese reader when it has one. */
export const skillNameIn = (skill: Omit<NamedSkill, 'description'>, lang: 'en' | 'zh-CN'): string =>
  (lang === 'zh-CN' && (skill.nameZh ?? skill['name-zh'])) || skill.name

/** A skill's name and description in the reader's language: the Chinese ones for a Chinese reader when it has them. */
export function skillInLang(skill: NamedSkill, lang: 'en' | 'zh-CN'): { name: string; description: string } {
  const description = (lang === 'zh-CN' && (skill.descriptionZh ?? skill['description-zh'])) || skill.description
  return { name: skillNameIn(skill, lang), description }
}

/** Chinese for the English words a task says, from the skill it follows: its name and the reasons of its steps. */
export type WordsZh = Record<string, string>

/** The words a task shows in the reader's language: the skill's Chinese for a Chinese reader, where it has it. */
export const inReaderLang = (text: string, words: WordsZh | undefined, lang: 'en' | 'zh-CN'): string =>
  (lang === 'zh-CN' && words && Object.hasOwn(words, text) ? words[text] : undefined) ?? text

/** A skill's Chinese, for the task that follows it: its `words-zh` and its name. */
export function wordsZhOf(skill: { name: string; 'name-zh'?: string; 'words-zh'?: WordsZh[] }): WordsZh | undefined {
  const words: WordsZh = Object.assign({}, ...(skill['words-zh'] ?? []), skill['name-zh'] ? { [skill.name]: skill['name-zh'] } : {})
  return Object.keys(words).length ? words : undefined
}

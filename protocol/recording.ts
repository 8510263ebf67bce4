import { z } from 'zod'
import { ScriptStep } from './action-form'
import { SkillParameter, SkillSlug } from './skills'
import { FilledText, OneLineText } from './text'

/** What a typed step of a demonstration writes: never the value the person typed, only the `{{name}}` asked for at each run. */
export const RECORDED_TEXT = /^\{\{(?:[a-z][a-z0-9_]{0,39}|secret:[A-Za-z0-9_]{1,64})\}\}$/

/**
 * `POST /api/skills/recorded`: a demonstration the person recorded in the side panel, reviewed and named, saved as
 * a skill. Each step names its element in up to three ways (role and name, visible text, CSS selector), tried
 * in that order when the skill runs.
 */
export const SaveRecordingBody = z
  .strictObject({
    name: OneLineText(200),
    description: FilledText(2000).optional(),
    slug: SkillSlug.optional(),
    overwrite: z.boolean().optional(),
    /** When a skill of the person's has this name (or slug) already, save this one beside it, under a slug of its own. */
    keepBoth: z.boolean().optional(),
    /** The procedure in the person's words (the SOP), as they edited it. */
    sop: FilledText(20_000),
    steps: z.array(ScriptStep).min(1).max(500),
    parameters: z.array(SkillParameter).max(50).optional(),
    /** The page the demonstration began on. */
    startUrl: z.string().max(8192).url().refine((u) => /^https?:\/\//.test(u), 'an http(s) URL').optional(),
  })
  .superRefine((body, ctx) => {
    const declared = new Set((body.parameters ?? []).map((p) => p.name))
    body.steps.forEach((step, i) => {
      if (step.type !== 'type') return
      if (!RECORDED_TEXT.test(step.text)) ctx.addIssue({ code: 'custom', path: ['steps', i, 'text'], message: 'a recorded value is a {{name}}, never the value typed' })
      const name = /^\{\{([a-z][a-z0-9_]*)\}\}$/.exec(step.text)?.[1]
      if (name && !declared.has(name)) ctx.addIssue({ code: 'custom', path: ['steps', i, 'text'], message: `{{${name}}} is not among the parameters` })
    })
  })
export type SaveRecordingBody = z.infer<typeof SaveRecordingBody>

import { z } from 'zod'
import { storage } from 'wxt/utils/storage'

/** What the person was writing, kept so closing the panel loses nothing. */
export const Draft = z.object({
  goal: z.string().max(4000),
  /** `scripted`: the skill replays its script with no LLM (absent in drafts kept before the search said so). */
  skill: z
    .object({
      slug: z.string(),
      name: z.string(),
      scripted: z.boolean().optional(),
      /** What the skill asks for at each run; the values themselves are never kept in the draft. */
      parameters: z.array(z.object({ name: z.string(), label: z.string() })).optional(),
    })
    .nullable(),
  where: z.enum(['current', 'new']),
  startUrl: z.string().max(8192),
  /** Show the plan first: the task proposes its plan and waits for the person's approval before it runs. */
  planFirst: z.boolean().optional(),
})
export type Draft = z.output<typeof Draft>
export const EMPTY_DRAFT: Draft = { goal: '', skill: null, where: 'current', startUrl: '' }

/** The task the side panel follows, kept across panel reloads. */
export const followedTaskItem = storage.defineItem<string | null>('local:tandem.panel.task', { fallback: null })

export const draftItem = storage.defineItem<Draft>('local:tandem.panel.draft', { fallback: EMPTY_DRAFT })

/** The draft as stored, or an empty one when something else wrote a malformed value. */
export async function readDraft(): Promise<Draft> {
  const parsed = Draft.safeParse(await draftItem.getValue())
  return parsed.success ? parsed.data : EMPTY_DRAFT
}

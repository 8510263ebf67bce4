import { z } from 'zod'

/** What each action type reads from `action.params` (the server builds them from the action forms). */
export const ActionParams = {
  click: z.object({}),
  type: z.object({ text: z.string().max(20_000), clear: z.boolean().optional(), submit: z.boolean().optional() }),
  select: z.object({ option: z.string().min(1).max(2000) }),
  press: z.object({ keys: z.string().min(1).max(200) }),
  scroll: z.object({ direction: z.enum(['up', 'down']).default('down'), amount: z.number().min(0).max(100_000).optional() }),
  waitFor: z.object({
    text: z.string().min(1).max(2000).optional(),
    urlIncludes: z.string().min(1).max(2000).optional(),
    selector: z.string().min(1).max(2000).optional(),
    timeoutMs: z.number().int().min(0).max(120_000).optional(),
  }),
  extract: z.object({ instruction: z.string().max(8000).optional(), schema: z.record(z.string(), z.unknown()).optional() }),
  back: z.object({}),
} as const

export type PageActionType = keyof typeof ActionParams

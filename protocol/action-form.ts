import { z } from 'zod'
import { Risk, Target } from './action'

/**
 * Actions as the LLM writes them (DESIGN: "What the LLM sees and answers") and as a script lists them.
 * A script may name its element by `selector` or visible `text` (for `type`, `text` is what gets typed,
 * so name the element by `selector`, `index` or `target`).
 */
const index = z.number().int().min(0).max(100_000)
const str = (max: number) => z.string().min(1).max(max)
const extras = { reason: z.string().max(2000).optional(), risk: Risk.optional() }
const targeted = { index: index.optional(), selector: str(2000).optional(), target: Target.optional(), ...extras }
const byText = { ...targeted, text: str(2000).optional() }

function forms<O extends typeof z.object | typeof z.strictObject>(object: O) {
  return [
    object({ type: z.literal('navigate'), url: str(8192), ...extras }),
    object({ type: z.literal('click'), ...byText }),
    object({ type: z.literal('type'), ...targeted, text: z.string().max(20_000), submit: z.boolean().optional(), clear: z.boolean().optional() }),
    object({ type: z.literal('select'), ...byText, option: str(2000) }),
    object({ type: z.literal('press'), keys: str(200), ...extras }),
    object({ type: z.literal('scroll'), direction: z.enum(['up', 'down']), amount: z.number().min(0).max(100_000).optional(), ...byText }),
    object({
      type: z.literal('waitFor'),
      text: str(2000).optional(),
      urlIncludes: str(2000).optional(),
      selector: str(2000).optional(),
      timeoutMs: z.number().int().min(0).max(120_000).optional(),
      ...extras,
    }),
    object({ type: z.literal('extract'), instruction: str(8000), schema: z.record(z.string(), z.unknown()).optional(), ...extras }),
    object({ type: z.literal('back'), ...extras }),
    object({ type: z.literal('ask_user'), question: str(4000) }),
    object({ type: z.literal('done'), success: z.boolean(), text: z.string().max(20_000), data: z.unknown().optional() }),
  ] as const
}

const hasTarget = (a: { type: string; index?: number; selector?: string; target?: unknown; text?: string }) =>
  !['click', 'type', 'select'].includes(a.type) ||
  a.index !== undefined || a.selector !== undefined || a.target !== undefined || (a.type !== 'type' && a.text !== undefined)
const targetMessage = { message: 'click, type and select need an element: index, selector, text or target' }

/** One action in the LLM's answer (extra keys tolerated: models add them). */
export const LlmActionForm = z.discriminatedUnion('type', forms(z.object)).refine(hasTarget, targetMessage)
export type LlmActionForm = z.infer<typeof LlmActionForm>

/** One step of a script task (strict: a typo in a field name is an error, not a silent no-op). */
export const ScriptStep = z
  .discriminatedUnion('type', [
    ...forms(z.strictObject),
    z.strictObject({ type: z.literal('observe'), ...extras }),
    z.strictObject({ type: z.literal('screenshot'), ...extras }),
  ])
  .refine(hasTarget, targetMessage)
export type ScriptStep = z.infer<typeof ScriptStep>

/** Any action form the engine plans with: from a script or from the model. */
export type ActionForm = ScriptStep | LlmActionForm

/** The model's answer: one JSON object (DESIGN contract). */
export const AgentOutput = z.object({
  thinking: z.string().max(20_000).optional(),
  evaluation_previous_goal: z.string().max(4000).optional(),
  memory: z.string().max(8000).optional(),
  next_goal: z.string().max(4000).optional(),
  actions: z
    .array(LlmActionForm)
    .min(1)
    .max(3)
    .refine((list) => list.length === 1 || !list.some((a) => a.type === 'done' || a.type === 'ask_user'), {
      message: 'done and ask_user must stand alone',
    }),
})
export type AgentOutput = z.infer<typeof AgentOutput>

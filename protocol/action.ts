import { z } from 'zod'
import { RedactSettings } from './sensitive-text'
import { MAX_ALLOWED_WRITES, WriteAllowRule } from './write-allow'
import { AskAlwaysRule, MAX_ASK_ALWAYS } from './harmless-kind'
import { ACTION_TYPES, paramsSchema, type ActionParamsOf } from './action-registry'

export const Risk = z.enum(['low', 'medium', 'high'])
export type Risk = z.infer<typeof Risk>

/** The wire's action types: the registry's keys (see action-registry.ts for what each one is). */
export const ActionType = z.enum(ACTION_TYPES)
export type ActionType = z.infer<typeof ActionType>

const text = (max: number) => z.string().min(1).max(max)

/** How an action names its element. An index belongs to one observation; selector and text survive page changes. */
export const Target = z.discriminatedUnion('by', [
  z.strictObject({ by: z.literal('index'), value: z.number().int().min(0).max(100_000), fingerprint: z.string().max(128).optional() }),
  z.strictObject({ by: z.literal('selector'), value: text(2000), fingerprint: z.string().max(128).optional() }),
  z.strictObject({ by: z.literal('text'), value: text(2000), fingerprint: z.string().max(128).optional() }),
  z.strictObject({ by: z.literal('role'), value: text(2000), fingerprint: z.string().max(128).optional() }),
])
export type Target = z.infer<typeof Target>

export const Confirmation = z.strictObject({
  approved: z.literal(true),
  at: z.string(),
  by: z.string().max(200),
})
export type Confirmation = z.infer<typeof Confirmation>

/** One structured action, as the server hands it to the extension. */
export const Action = z.object({
  taskId: z.string(),
  actionId: z.string(),
  seq: z.number().int().min(0),
  type: ActionType,
  target: Target.optional(),
  params: z.record(z.string(), z.unknown()),
  risk: Risk,
  requiresConfirmation: z.boolean(),
  confirmation: Confirmation.optional(),
  reason: z.string().optional(),
  /** Emails or phone numbers the server hides: the extension masks them too in the screenshots it takes. */
  redact: RedactSettings.optional(),
  /** Writes the person always allows on their sites: the barrier lets these through without asking. */
  allowWrites: z.array(WriteAllowRule).max(MAX_ALLOWED_WRITES).optional(),
  /** Kinds of harmless write the person wants asked about on a site all the same: the barrier holds these. */
  askAlways: z.array(AskAlwaysRule).max(MAX_ASK_ALWAYS).optional(),
  /**
   * Another step of the task is already planned and comes at once (a script's next step): what this step's handlers
   * do a moment after it is reported is heard by that step, so this one need not wait for them.
   */
  followed: z.boolean().optional(),
})
export type Action = z.infer<typeof Action>

/** An action with its params as its type declares them: a union on `type` (params the type does not read pass through). */
export type TypedAction = { [T in ActionType]: Omit<Action, 'type' | 'params'> & { type: T; params: ActionParamsOf<T> & Record<string, unknown> } }[ActionType]

/**
 * Reads an action's params as its type declares them. The wire keeps `params` an open record, so that a server or
 * an extension of another version still reads the message; the reader checks what it needs here.
 */
export function readParams(action: Action): { ok: true; action: TypedAction } | { ok: false; problem: string } {
  const parsed = paramsSchema(action.type).loose().safeParse(action.params)
  if (parsed.success) return { ok: true, action: { ...action, params: parsed.data } as TypedAction }
  return { ok: false, problem: parsed.error.issues.map((i) => `${i.path.join('.') || 'params'} ${i.message}`).join('; ') }
}

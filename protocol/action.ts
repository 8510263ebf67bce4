import { z } from 'zod'
import { RedactSettings } from './sensitive-text'
import { MAX_ALLOWED_WRITES, WriteAllowRule } from './write-allow'

export const Risk = z.enum(['low', 'medium', 'high'])
export type Risk = z.infer<typeof Risk>

export const ActionType = z.enum([
  'observe',
  'navigate',
  'click',
  'type',
  'select',
  'press',
  'scroll',
  'waitFor',
  'extract',
  'screenshot',
  'back',
  /**
   * Lets requests the write barrier held go on, once the person approved them (params.holds: the held ids). The
   * engine proposes it; the model and scripts never do.
   */
  'release',
])
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
})
export type Action = z.infer<typeof Action>

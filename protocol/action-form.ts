import { z } from 'zod'
import { Risk, Target, type ActionType } from './action'
import { ACTIONS, actionSpec, actionTypesWhere, endsBatch, type ActionSpec, type SpecOf } from './action-registry'

/**
 * Actions as the LLM writes them (DESIGN: "What the LLM sees and answers") and as a script lists them.
 * A script may name its element by `selector` or visible `text` (for `type`, `text` is what gets typed,
 * so name the element by `selector`, `index` or `target`).
 */
const index = z.number().int().min(0).max(100_000)
const str = (max: number) => z.string().min(1).max(max)
const extras = { reason: z.string().max(2000).optional(), risk: Risk.optional() }
const targeted = { index: index.optional(), selector: str(2000).optional(), target: Target.optional() }
const byText = { text: str(2000).optional() }

/** A registry entry as a form: its element keys, its fields, its reason and risk. */
function formOf<O extends typeof z.object | typeof z.strictObject>(object: O, type: ActionType) {
  const s = ACTIONS[type] as ActionSpec
  return object({
    type: z.literal(type),
    ...(s.target === 'none' ? {} : targeted),
    ...(s.textNamesTarget ? byText : {}),
    ...s.fields,
    ...extras,
  })
}

/** What a model or a script decides besides actions: the end of the task, or a question for the person. */
const decisions = <O extends typeof z.object | typeof z.strictObject>(object: O) =>
  [
    object({ type: z.literal('ask_user'), question: str(4000) }),
    object({ type: z.literal('done'), success: z.boolean(), text: z.string().max(20_000), data: z.unknown().optional() }),
  ] as const

type FormShape<T extends ActionType> = { type: z.ZodLiteral<T> } & (SpecOf<T>['target'] extends 'none' ? {} : typeof targeted) &
  (SpecOf<T>['textNamesTarget'] extends true ? typeof byText : {}) &
  SpecOf<T>['fields'] &
  typeof extras
type Form<T extends ActionType> = z.ZodObject<FormShape<T>>
type FormsOf<T extends ActionType> = { [K in T]: Form<K> }[T]
type ModelType = { [T in ActionType]: (typeof ACTIONS)[T]['proposedBy'] extends 'model' ? T : never }[ActionType]
type ScriptType = { [T in ActionType]: (typeof ACTIONS)[T]['proposedBy'] extends 'model' | 'script' ? T : never }[ActionType]

const MODEL_TYPES = actionTypesWhere((s) => s.proposedBy === 'model') as ModelType[]
/** Forms only a script writes (observe, screenshot): listed after the model's. */
const SCRIPT_ONLY = actionTypesWhere((s) => s.proposedBy === 'script') as ScriptType[]

// The forms are built from the table at run time; their static types are spelled from it here.
type Option<T extends ActionType> = FormsOf<T> | ReturnType<typeof decisions>[number]
type Options<T extends ActionType> = [Option<T>, ...Option<T>[]]
const modelForms = () => [...MODEL_TYPES.map((t) => formOf(z.object, t)), ...decisions(z.object)] as unknown as Options<ModelType>
const scriptForms = () =>
  [...MODEL_TYPES.map((t) => formOf(z.strictObject, t)), ...decisions(z.strictObject), ...SCRIPT_ONLY.map((t) => formOf(z.strictObject, t))] as unknown as Options<ScriptType>

const hasTarget = (a: { type: string; index?: number; selector?: string; target?: unknown; text?: string }) => {
  const s = actionSpec(a.type)
  if (s?.target !== 'required') return true
  return a.index !== undefined || a.selector !== undefined || a.target !== undefined || (s.textNamesTarget && a.text !== undefined)
}
const needing = actionTypesWhere((s) => s.target === 'required')
const targetMessage = { message: `${needing.slice(0, -1).join(', ')} and ${needing.at(-1)} need an element: index, selector, text or target` }

/** One action in the LLM's answer (extra keys tolerated: models add them). */
export const LlmActionForm = z.discriminatedUnion('type', modelForms()).refine(hasTarget, targetMessage)
export type LlmActionForm = z.infer<typeof LlmActionForm>

/** One step of a script task (strict: a typo in a field name is an error, not a silent no-op). */
export const ScriptStep = z.discriminatedUnion('type', scriptForms()).refine(hasTarget, targetMessage)
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
    .refine((list) => list.length === 1 || !list.some((a) => isDecision(a)), {
      message: 'done and ask_user must stand alone',
    }),
})
export type AgentOutput = z.infer<typeof AgentOutput>

/** The end of the task or a question: not an action, and never planned beside one. */
export const isDecision = (form: { type: string }): form is Extract<ActionForm, { type: 'done' | 'ask_user' }> =>
  form.type === 'done' || form.type === 'ask_user'

/** Actions planned after one that ends a batch would run before its answer is read: the plan stops there. */
export function upToBatchEnd<F extends { type: string }>(forms: F[]): F[] {
  const at = forms.findIndex((f) => endsBatch(f.type))
  return at < 0 ? forms : forms.slice(0, at + 1)
}

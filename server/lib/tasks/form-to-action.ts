import type { Action, ActionForm, ElementInfo, Target } from '#protocol'
import { ACTIONS, isDecision, type ActionSpec } from '#protocol'

type PlannedForm = Exclude<ActionForm, { type: 'done' } | { type: 'ask_user' }>
export const isPlannedAction = (form: ActionForm): form is PlannedForm => !isDecision(form)

/** Keys of every form that are no param: what it is, why, and how risky its planner thinks it is. */
const FORM_KEYS = new Set(['type', 'reason', 'risk'])
/** Keys by which a form that names an element names it (a form without one may carry, say, a selector to wait for). */
const ELEMENT_KEYS = new Set(['index', 'selector', 'target'])

const specOf = (form: PlannedForm): ActionSpec => ACTIONS[form.type]

/** The element a form names, as an action target (the `text` of a `type` form is what gets typed, not a target). */
export function targetOf(form: PlannedForm, elements?: ElementInfo[]): Target | undefined {
  const f = form as PlannedForm & { index?: number; selector?: string; target?: Target; text?: string }
  if (f.target) return f.target
  if (f.index !== undefined) {
    const fingerprint = elements?.find((e) => e.index === f.index)?.fingerprint
    return { by: 'index', value: f.index, ...(fingerprint ? { fingerprint } : {}) }
  }
  if (f.selector !== undefined && specOf(form).target !== 'none') return { by: 'selector', value: f.selector }
  if (f.text !== undefined && specOf(form).textNamesTarget) return { by: 'text', value: f.text }
  return undefined
}

/** Turns a planned form into the action handed to the extension (risk is decided separately). */
export function formToAction(
  form: PlannedForm,
  ids: { taskId: string; actionId: string; seq: number },
  elements?: ElementInfo[],
): Omit<Action, 'risk' | 'requiresConfirmation'> {
  const target = targetOf(form, elements)
  const spec = specOf(form)
  const params: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(form)) {
    if (value === undefined || FORM_KEYS.has(key) || (spec.target !== 'none' && ELEMENT_KEYS.has(key))) continue
    // Text that named the element is not the action's to carry (a `type` form's text is what gets typed).
    if (key === 'text' && target?.by === 'text' && spec.textNamesTarget) continue
    params[key] = value
  }
  return {
    ...ids,
    type: form.type,
    ...(target ? { target } : {}),
    params,
    ...(form.reason ? { reason: form.reason } : {}),
  }
}

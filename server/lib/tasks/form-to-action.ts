import type { Action, ActionForm, ActionType, ElementInfo, Target } from '#protocol'

type PlannedForm = Exclude<ActionForm, { type: 'done' } | { type: 'ask_user' }>
export const isPlannedAction = (form: ActionForm): form is PlannedForm => form.type !== 'done' && form.type !== 'ask_user'

const TARGET_KEYS = new Set(['type', 'index', 'selector', 'target', 'reason', 'risk'])

/** The element a form names, as an action target (the `text` of a `type` form is what gets typed, not a target). */
export function targetOf(form: PlannedForm, elements?: ElementInfo[]): Target | undefined {
  const f = form as PlannedForm & { index?: number; selector?: string; target?: Target; text?: string }
  if (f.target) return f.target
  if (f.index !== undefined) {
    const fingerprint = elements?.find((e) => e.index === f.index)?.fingerprint
    return { by: 'index', value: f.index, ...(fingerprint ? { fingerprint } : {}) }
  }
  if (f.selector !== undefined && form.type !== 'waitFor') return { by: 'selector', value: f.selector }
  if (f.text !== undefined && ['click', 'select', 'scroll'].includes(form.type)) return { by: 'text', value: f.text }
  return undefined
}

/** Turns a planned form into the action handed to the extension (risk is decided separately). */
export function formToAction(
  form: PlannedForm,
  ids: { taskId: string; actionId: string; seq: number },
  elements?: ElementInfo[],
): Omit<Action, 'risk' | 'requiresConfirmation'> {
  const target = targetOf(form, elements)
  const params: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(form)) {
    if (value === undefined || TARGET_KEYS.has(key)) continue
    if (key === 'text' && target?.by === 'text' && form.type !== 'type') continue
    params[key] = value
  }
  if (form.type === 'waitFor' && 'selector' in form && form.selector) params.selector = form.selector
  return {
    ...ids,
    type: form.type as ActionType,
    ...(target ? { target } : {}),
    params,
    ...(form.reason ? { reason: form.reason } : {}),
  }
}

import { nanoid } from 'nanoid'
import type { ActionForm, Observation, ObservationError } from '#protocol'
import { describeNavigationFailure, parseWebAddress } from '#protocol'
import type { PendingEvent } from './events'
import { formToAction } from './form-to-action'
import { isRefused, originOf, refusedAgain, siteRefusedError } from './site-refusal'
import type { TaskRecord } from './task-record'

/** The forms the engine may stop before dispatch: an address that is none or refused, a file it cannot hand over. */
type NavigateForm = Extract<ActionForm, { type: 'navigate' | 'upload' }>

export type NavigateCheck = { ok: true; url: string } | { ok: false; error: ObservationError; refused?: string }

/**
 * Whether a navigate form may go to the extension: its address must be one (`example.com` is read as
 * https://example.com/, as in the panel) and its site not one the person refused in this task.
 */
export function checkNavigate(task: TaskRecord, url: string): NavigateCheck {
  const address = parseWebAddress(url)
  if (!address.ok) {
    const details = { reason: 'invalid-url' as const, url: url.slice(0, 2000), problem: address.problem }
    return { ok: false, error: { code: 'NAVIGATION_FAILED', message: describeNavigationFailure(details, 'en'), details } }
  }
  const site = originOf(address.url)
  if (isRefused(task, site)) return { ok: false, error: siteRefusedError(site), refused: site }
  return { ok: true, url: address.url }
}

/**
 * A step the engine stops before dispatch: it is recorded as proposed and failed, with nothing run in the browser,
 * and the planner hears why like any failed step.
 */
export function failBeforeDispatch(
  task: TaskRecord,
  form: NavigateForm,
  check: Extract<NavigateCheck, { ok: false }>,
  observation: Observation | null,
  events: PendingEvent[],
) {
  const seq = task.seq + 1
  task.seq = seq
  const action = { ...formToAction(form, { taskId: task.id, actionId: `a_${nanoid(14)}`, seq }), risk: 'low' as const, requiresConfirmation: false }
  const url = observation?.url ?? ''
  const goal = task.planGoal ?? form.reason
  events.push({ type: 'action.proposed', actionId: action.actionId, data: { action, risk: 'low', reasons: [], ...(goal ? { goal } : {}) } })
  const errors = [check.error]
  events.push({
    type: 'observation',
    actionId: action.actionId,
    data: { status: 'failed', url, title: observation?.title ?? '', errors, artifacts: [], timing: {}, elementCount: 0, treeChars: 0 },
  })
  task.steps.push({
    seq,
    actionId: action.actionId,
    type: action.type,
    risk: 'low',
    outcome: 'failed',
    url,
    title: observation?.title ?? '',
    errors,
    at: new Date().toISOString(),
    ...(goal ? { goal } : {}),
  })
  task.queue = []
  task.lastOutcome = { kind: 'failed', actionId: action.actionId, type: action.type, errors, url }
  if (check.refused) refusedAgain(task, check.refused, events)
}

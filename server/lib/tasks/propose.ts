import { nanoid } from 'nanoid'
import type { Action, ElementInfo, Observation, Risk } from '#protocol'
import { CREDENTIAL_SELECTOR, isCredentialField } from '#protocol'
import { formToAction, isPlannedAction } from '../agent/form-to-action'
import { setStatus, type PendingEvent } from './events'
import type { TaskRecord } from './task-record'

export interface RiskAssessor {
  assess(input: {
    type: Action['type']
    params: Record<string, unknown>
    target?: Action['target']
    element?: ElementInfo
    url?: string
    declared?: Risk
  }): { risk: Risk; reasons: string[] }
}

/**
 * Takes the first queued form and makes it the task's action in flight. A high-risk action waits for the
 * person (WAITING_CONFIRMATION); anything else is ready for the next poll. Returns false when nothing was queued.
 */
export function proposeNext(task: TaskRecord, observation: Observation | null, policy: RiskAssessor, events: PendingEvent[]): boolean {
  if (task.current || !['RUNNING', 'WAITING_PAGE'].includes(task.status)) return false
  const form = task.queue.shift()
  if (!form) return false
  if (!isPlannedAction(form)) throw new Error(`${form.type} cannot be queued as an action`)
  const seq = task.seq + 1
  const partial = formToAction(form, { taskId: task.id, actionId: `a_${nanoid(14)}`, seq }, observation?.elements)
  const element =
    partial.target?.by === 'index' ? observation?.elements?.find((e) => e.index === partial.target!.value) : undefined
  const { risk, reasons } = policy.assess({
    type: partial.type,
    params: partial.params,
    target: partial.target,
    element,
    url: observation?.url,
    declared: form.risk,
  })
  const action: Action = { ...partial, risk, requiresConfirmation: risk === 'high' }
  if (action.type === 'type' && typeof action.params.text === 'string' && typesCredential(action, element)) {
    // The value itself stays out of the audit; the extension also keeps it out of what it observes.
    action.params.sensitive = true
    task.sensitive = [...new Set([...(task.sensitive ?? []), action.params.text])]
  }
  task.seq = seq
  events.push({ type: 'action.proposed', actionId: action.actionId, data: { action, risk, reasons, ...(element ? { element } : {}) } })
  if (action.requiresConfirmation) {
    task.current = { action, form, phase: 'awaiting_confirmation', reasons, deliveries: 0 }
    events.push({ type: 'confirmation.requested', actionId: action.actionId, data: { risk, reasons } })
    setStatus(task, 'WAITING_CONFIRMATION', events, 'a high-risk action needs the person to approve it')
  } else {
    task.current = { action, form, phase: 'ready', reasons, deliveries: 0 }
  }
  return true
}

const typesCredential = (action: Pick<Action, 'target'>, element: ElementInfo | undefined) =>
  isCredentialField(element) ||
  (action.target?.by === 'selector' && CREDENTIAL_SELECTOR.test(action.target.value))

import { nanoid } from 'nanoid'
import type { Action, ElementInfo, Observation, Risk } from '#protocol'
import { CREDENTIAL_SELECTOR, isCredentialField } from '#protocol'
import { formToAction, isPlannedAction } from '../agent/form-to-action'
import { setStatus, type PendingEvent } from './events'
import { elementFromTree } from './tree-element'
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
  const index = partial.target?.by === 'index' ? partial.target.value : undefined
  const element =
    index === undefined
      ? undefined
      : (observation?.elements?.find((e) => e.index === index) ?? elementFromTree(observation?.elementTree ?? '', index))
  const { risk, reasons } = policy.assess({
    type: partial.type,
    params: partial.params,
    target: partial.target,
    element,
    url: observation?.url,
    declared: form.risk,
  })
  const action: Action = { ...partial, risk, requiresConfirmation: risk === 'high' }
  const text = action.params.text
  // A {{secret:NAME}} placeholder is safe to keep: the value is filled in on delivery and scrubbed everywhere.
  if (action.type === 'type' && typeof text === 'string' && !text.includes('{{secret:') && typesCredential(action, element)) {
    // The value itself stays out of the audit; the extension also keeps it out of what it observes.
    action.params.sensitive = true
    task.sensitive = [...new Set([...(task.sensitive ?? []), text])]
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

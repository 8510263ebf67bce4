import { nanoid } from 'nanoid'
import type { Action, ArtifactRef, HeldWrite, Observation, RiskReason } from '#protocol'
import { describeRiskReason } from '#protocol'
import { setStatus, type PendingEvent } from './events'
import { artifactLinks, confirmationEvidence } from './step-details'
import type { InFlight, TaskRecord } from './task-record'

/** Why a held write is asked about, as data and in English. */
function heldReasons(held: HeldWrite[]): { reasons: string[]; reasonDetails: RiskReason[] } {
  const reasonDetails: RiskReason[] = held.map(({ request }) => ({ code: 'held-write', method: request.method, site: request.origin, path: request.path }))
  return { reasons: reasonDetails.map((d) => describeRiskReason(d, 'en')), reasonDetails }
}

/**
 * The step the person did not approve set off writes, and the barrier holds them in the browser: the task waits for
 * the person, who sees what was clicked, what the page tries to send and the page as it is now. Approved, a
 * `release` lets the very same requests go on; rejected, they fail and never reach the site.
 */
export function proposeRelease(
  task: TaskRecord,
  observation: Observation,
  artifacts: ArtifactRef[],
  step: { actionId: string; targetText?: string; goal?: string },
  events: PendingEvent[],
) {
  const held = observation.held ?? []
  for (const write of held) events.push({ type: 'write.held', actionId: step.actionId, data: { ...write, stepActionId: step.actionId } })
  // What else the planner queued was meant for the page before it tried to send: the person's answer comes first.
  if (task.queue.length) events.push({ type: 'queue.dropped', data: { reason: 'the page tried to send something', dropped: task.queue } })
  task.queue = []
  const seq = task.seq + 1
  task.seq = seq
  const requests = held.map((h) => h.request)
  const action: Action = {
    taskId: task.id,
    actionId: `a_${nanoid(14)}`,
    seq,
    type: 'release',
    params: { holds: held.map((h) => h.id), requests, after: step.actionId },
    risk: 'high',
    requiresConfirmation: true,
  }
  const { reasons, reasonDetails } = heldReasons(held)
  const base = confirmationEvidence(observation, step.targetText, task.steps)
  const shot = artifactLinks(artifacts).findLast((a) => a.label === 'after')
  const evidence = { ...base, ...(shot ? { screenshot: shot } : {}), requests }
  const details = { ...(step.goal ? { goal: step.goal } : {}), ...(step.targetText ? { targetText: step.targetText } : {}) }
  events.push({ type: 'action.proposed', actionId: action.actionId, data: { action, risk: 'high', reasons, reasonDetails, ...details } })
  task.current = { action, form: { type: 'release' }, phase: 'awaiting_confirmation', reasons, reasonDetails, deliveries: 0, ...details, evidence }
  events.push({ type: 'confirmation.requested', actionId: action.actionId, data: { risk: 'high', reasons, reasonDetails, ...details, evidence } })
  setStatus(task, 'WAITING_CONFIRMATION', events, 'the page tried to send something; the person decides whether it goes')
}

/**
 * The barrier held writes during the step in flight: the person is asked to release them, for the step whose
 * handlers sent them.
 */
export function proposeHeldRelease(task: TaskRecord, current: InFlight, observation: Observation, artifacts: ArtifactRef[], events: PendingEvent[]) {
  const earlier = observation.heldAfter ? task.steps.find((s) => s.actionId === observation.heldAfter) : undefined
  if (earlier && current.form.type !== 'release') {
    // The writes came from the earlier step's handlers; this step did not run, and runs once the person decides.
    proposeRelease(task, observation, artifacts, { actionId: earlier.actionId, ...(earlier.target ? { targetText: earlier.target } : {}) }, events)
    task.queue = [current.form]
    return
  }
  const step = { actionId: current.action.actionId, ...(current.targetText ? { targetText: current.targetText } : {}), ...(current.goal ? { goal: current.goal } : {}) }
  proposeRelease(task, observation, artifacts, step, events)
}

/** Held writes of a pending release that will never be sent (rejected, canceled, taken over), for the audit. */
export function refuseRelease(task: TaskRecord, why: 'rejected' | 'canceled' | 'paused', events: PendingEvent[], by?: string) {
  const current = task.current
  if (current?.action.type !== 'release' || current.phase !== 'awaiting_confirmation') return
  const requests = Array.isArray(current.action.params.requests) ? current.action.params.requests : []
  for (const request of requests) events.push({ type: 'write.refused', actionId: current.action.actionId, data: { request, why, ...(by ? { by } : {}) } })
}

/** What a release step did in the browser, for the audit: sent after approval, or no longer there to send. */
export function releaseOutcome(action: Action, observation: Observation, events: PendingEvent[]) {
  const by = action.confirmation?.by ?? 'unknown'
  const at = action.confirmation?.at ?? new Date().toISOString()
  for (const write of observation.released ?? []) events.push({ type: 'write.released', actionId: action.actionId, data: { request: write.request, by, at } })
  for (const write of observation.gone ?? []) events.push({ type: 'write.refused', actionId: action.actionId, data: { request: write.request, why: 'lost' } })
}

import type { ArtifactRef, Observation, Usage, WriteAllowRule } from '#protocol'
import { isTerminal, stepOutcomeOf } from '#protocol'
import { moveTo, type PendingEvent } from './events'
import { applyFailure } from './failed-step'
import { finish } from './finish'
import type { PlannerOutput } from './planner'
import { recordObservation } from './record-observation'
import { proposeHeldRelease } from './release'
import { asRefusedHere, refusedSiteOf } from './site-refusal'
import type { InFlight, TaskRecord } from './task-record'

/** The step did what it was for: the planner hears it, and what it queued for a page that is gone is dropped. */
function applyDone(task: TaskRecord, { action }: InFlight, observation: Observation, previousUrl: string | undefined, events: PendingEvent[]) {
  task.lastOutcome = { kind: 'done', actionId: action.actionId, type: action.type, url: observation.url, extracted: observation.extracted }
  if (task.queue.length && previousUrl && observation.url && previousUrl !== observation.url) {
    events.push({ type: 'queue.dropped', data: { reason: 'the page changed', dropped: task.queue } })
    task.queue = []
  }
  if (task.status === 'WAITING_PAGE') moveTo(task, 'RUNNING', events, 'the page is ready')
}

/**
 * The person took over while the step ran and the extension ended it: no failure (nothing counts against the task,
 * no slow page is blamed). What was queued after it was planned for a page the person has since had in hand, so it
 * goes, and the planner looks again once the task is resumed.
 */
function applyTakenOver(task: TaskRecord, { action }: InFlight, observation: Observation, events: PendingEvent[]) {
  task.lastOutcome = { kind: 'taken_over', actionId: action.actionId, type: action.type, ...(observation.url ? { url: observation.url } : {}) }
  if (task.queue.length) events.push({ type: 'queue.dropped', data: { reason: 'the person took over', dropped: task.queue } })
  task.queue = []
  if (task.status === 'WAITING_PAGE') moveTo(task, 'RUNNING', events, 'the person took over')
}

/** Records the result of the action in flight and decides what the task waits for next. */
export function applyObservation(
  task: TaskRecord,
  observation: Observation,
  artifacts: ArtifactRef[],
  previousUrl: string | undefined,
  events: PendingEvent[],
  /** The writes always allowed on sites, to tell which rule let a write through. */
  siteRules: readonly WriteAllowRule[] = [],
) {
  const current = task.current!
  // A site the person already refused in this task is not asked about again: the step failed for that reason.
  const refusedHere = refusedSiteOf(task, observation, String(current.action.params.url ?? ''))
  if (refusedHere) observation = asRefusedHere(observation, refusedHere)
  if (observation.barrier) task.barrier = observation.barrier
  task.current = null
  recordObservation(task, current, observation, artifacts, siteRules, events)
  if (isTerminal(task.status)) return
  if (observation.held?.length && task.status !== 'PAUSED') return proposeHeldRelease(task, current, observation, artifacts, events)
  if (current.isEvidence) {
    // Only a picture for the person: whatever came of it, the risky action queued behind it is asked next.
    if (observation.status === 'done' && task.status === 'WAITING_PAGE') moveTo(task, 'RUNNING', events, 'the page is ready')
    return
  }
  if (stepOutcomeOf(observation) === 'taken_over') return applyTakenOver(task, current, observation, events)
  if (observation.status === 'failed') return applyFailure(task, current, observation, refusedHere, events)
  applyDone(task, current, observation, previousUrl, events)
}

const addUsage = (total: Usage, more: Partial<Usage> = {}): Usage => ({
  llmCalls: total.llmCalls + (more.llmCalls ?? 0),
  promptTokens: total.promptTokens + (more.promptTokens ?? 0),
  completionTokens: total.completionTokens + (more.completionTokens ?? 0),
  totalTokens: total.totalTokens + (more.totalTokens ?? 0),
  latencyMs: total.latencyMs + (more.latencyMs ?? 0),
})

/** Applies a planner's decision: queue its actions, finish, or ask the person. */
export function applyDecision(task: TaskRecord, output: PlannerOutput, planner: string, events: PendingEvent[]) {
  const { decision } = output
  events.push({ type: 'planner.decision', data: { planner, decision, ...(output.usage ? { usage: output.usage } : {}), ...output.audit } })
  task.usage = addUsage(task.usage, output.usage)
  if (output.state !== undefined) task.plannerState = output.state
  task.lastOutcome = null
  task.planGoal = output.goal
  task.followed = output.followed || undefined
  switch (decision.kind) {
    case 'act':
      task.queue.push(...decision.actions)
      return
    case 'ask':
      task.question = decision.question
      task.questionWords = decision.code ? { code: decision.code, params: decision.params ?? {} } : undefined
      events.push({ type: 'user.asked', data: { question: decision.question } })
      moveTo(task, 'WAITING_USER', events, 'the planner needs an answer')
      return
    case 'done':
      task.result = {
        success: decision.success,
        text: decision.text,
        ...(decision.data === undefined ? {} : { data: decision.data }),
        ...(decision.code ? { code: decision.code, ...(decision.params ? { params: decision.params } : {}) } : {}),
      }
      if (!decision.success) task.error = { code: 'GOAL_NOT_MET', message: decision.text }
      finish(task, decision.success ? 'SUCCEEDED' : 'FAILED', events, decision.text)
      return
    case 'fail':
      task.error = { code: decision.code, message: decision.message, ...(decision.details ? { details: decision.details } : {}) }
      finish(task, 'FAILED', events, decision.message)
      return
    case 'plan':
      task.plan = { state: 'proposed', proposed: decision.plan }
      events.push({ type: 'plan.proposed', data: { plan: decision.plan } })
      moveTo(task, 'WAITING_PLAN', events, 'the plan waits for the person')
  }
}

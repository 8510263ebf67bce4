import type { ArtifactRef, Observation, Usage, WriteAllowRule } from '#protocol'
import { isTerminal } from '#protocol'
import { moveTo, type PendingEvent } from './events'
import { finish } from './finish'
import type { PlannerOutput } from './planner'
import { proposeRelease, releaseOutcome } from './release'
import { artifactLinks, typedOf } from './step-details'
import { isRefused, originOf, refusedAgain, siteQuestion, siteRefusedError } from './site-refusal'
import { allowedByWhich } from './task-allow'
import type { TaskRecord } from './task-record'

/** The refused site a PERMISSION_DENIED in this observation is about, if any. */
function refusedSiteOf(task: TaskRecord, observation: Observation, actionUrl: string): string | null {
  const denied = observation.errors.find((e) => e.code === 'PERMISSION_DENIED')
  if (!denied || !task.refusedSites?.length) return null
  const site = originOf(denied.origin || observation.url || actionUrl)
  return isRefused(task, site) ? site : null
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
  const { action, form } = current
  // A site the person already refused in this task is not asked about again: the step failed for that reason.
  const refusedHere = refusedSiteOf(task, observation, String(action.params.url ?? ''))
  if (refusedHere) observation = { ...observation, errors: observation.errors.map((e) => (e.code === 'PERMISSION_DENIED' ? siteRefusedError(refusedHere) : e)) }
  const codes = new Set(observation.errors.map((e) => e.code))
  if (observation.barrier) task.barrier = observation.barrier
  task.current = null
  task.steps.push({
    seq: action.seq,
    actionId: action.actionId,
    type: action.type,
    risk: action.risk,
    outcome: observation.status,
    url: observation.url,
    title: observation.title,
    errors: observation.errors,
    at: new Date().toISOString(),
    ...(current.goal ? { goal: current.goal } : {}),
    ...(current.targetText ? { target: current.targetText } : observation.targetName ? { target: observation.targetName } : {}),
    ...typedOf(action),
    ...(artifacts.length ? { artifacts: artifactLinks(artifacts) } : {}),
    ...(observation.harmless?.length ? { harmless: observation.harmless } : {}),
  })
  events.push({
    type: 'observation',
    actionId: action.actionId,
    data: {
      status: observation.status,
      url: observation.url,
      title: observation.title,
      errors: observation.errors,
      ...(observation.extracted === undefined ? {} : { extracted: observation.extracted }),
      ...(observation.targetName ? { targetName: observation.targetName } : {}),
      artifacts,
      timing: observation.timing,
      ...(observation.scroll ? { scroll: observation.scroll } : {}),
      ...(observation.settle ? { settle: observation.settle } : {}),
      elementCount: observation.elements?.length ?? 0,
      treeChars: observation.elementTree.length,
      ...(observation.input ? { input: observation.input } : {}),
      ...(observation.command ? { command: observation.command } : {}),
    },
  })
  for (const request of observation.dropped ?? []) events.push({ type: 'write.dropped', actionId: action.actionId, data: { request, reason: 'telemetry' } })
  for (const request of observation.allowed ?? []) {
    events.push({ type: 'write.allowed', actionId: action.actionId, data: { request, ...allowedByWhich(request, task, siteRules) } })
  }
  for (const { request, kind } of observation.harmless ?? []) events.push({ type: 'write.harmless', actionId: action.actionId, data: { request, kind } })
  if (action.type === 'release') releaseOutcome(action, observation, events)
  if (isTerminal(task.status)) return
  if (observation.held?.length && task.status !== 'PAUSED') {
    const earlier = observation.heldAfter ? task.steps.find((s) => s.actionId === observation.heldAfter) : undefined
    if (earlier && form.type !== 'release') {
      // The writes came from the earlier step's handlers; this step did not run, and runs once the person decides.
      proposeRelease(task, observation, artifacts, { actionId: earlier.actionId, ...(earlier.target ? { targetText: earlier.target } : {}) }, events)
      task.queue = [form]
      return
    }
    const step = { actionId: action.actionId, ...(current.targetText ? { targetText: current.targetText } : {}), ...(current.goal ? { goal: current.goal } : {}) }
    return proposeRelease(task, observation, artifacts, step, events)
  }

  if (current.isEvidence) {
    // Only a picture for the person: whatever came of it, the risky action queued behind it is asked next.
    if (observation.status === 'done' && task.status === 'WAITING_PAGE') moveTo(task, 'RUNNING', events, 'the page is ready')
    return
  }

  if (observation.status === 'failed') {
    if (form.type === 'release') {
      task.queue = []
      task.lastOutcome = { kind: 'failed', actionId: action.actionId, type: action.type, errors: observation.errors, url: observation.url }
      return
    }
    if (codes.has('WRITE_UNHELD')) {
      // Something may have reached the site unasked: no planner goes on from there; the person looks first.
      const unheld = observation.errors.find((e) => e.code === 'WRITE_UNHELD')!
      task.error = { code: 'WRITE_UNHELD', message: unheld.message }
      return finish(task, 'FAILED', events, 'a write left the browser unheld')
    }
    if (codes.has('PERMISSION_DENIED')) {
      // Nothing ran: ask the person to authorise the site, then run the same step again.
      task.queue.unshift(form)
      const denied = observation.errors.find((e) => e.code === 'PERMISSION_DENIED')?.origin
      const site = originOf(denied || observation.url || String(action.params.url ?? ''))
      const page = observation.url ? originOf(observation.url) : ''
      // Leaving for another site is what an injected instruction asks for: the person is told it came from the page.
      task.question =
        denied && page && page !== site
          ? `A step on ${page} would take the page to ${site}, a site Tandem has no permission to act on. Authorise it in the side panel only if you expected to go there; otherwise answer no.`
          : `Tandem has no permission to act on ${site}. Authorise this site in the side panel, then answer to continue.`
      task.askedSite = siteQuestion(task, site)
      events.push({ type: 'user.asked', data: { question: task.question, reason: 'PERMISSION_DENIED' } })
      moveTo(task, 'WAITING_USER', events, 'the site is not authorised')
      return
    }
    if (codes.has('CONFIRMATION_REQUIRED') && !action.confirmation) {
      const blocked = observation.blocked ?? []
      for (const write of blocked) events.push({ type: 'write.refused', actionId: action.actionId, data: { request: write.request, why: 'blocked' } })
      if (blocked.length) task.blockedWrites = blocked.map((w) => w.request)
      // The extension judged the real element riskier than the server could, or the browser blocked what it sent:
      // ask the person before retrying.
      task.queue.unshift({ ...form, risk: 'high' } as typeof form)
      return
    }
    if (codes.has('NAVIGATION_IN_PROGRESS')) {
      task.queue.unshift({ type: 'observe' }, form)
      moveTo(task, 'WAITING_PAGE', events, 'the page is still loading')
      return
    }
    task.queue = []
    task.lastOutcome = { kind: 'failed', actionId: action.actionId, type: action.type, errors: observation.errors, url: observation.url }
    if (refusedHere && refusedAgain(task, refusedHere, events)) return
    if (task.status === 'WAITING_PAGE') moveTo(task, 'RUNNING', events)
    return
  }

  task.lastOutcome = { kind: 'done', actionId: action.actionId, type: action.type, url: observation.url, extracted: observation.extracted }
  if (task.queue.length && previousUrl && observation.url && previousUrl !== observation.url) {
    events.push({ type: 'queue.dropped', data: { reason: 'the page changed', dropped: task.queue } })
    task.queue = []
  }
  if (task.status === 'WAITING_PAGE') moveTo(task, 'RUNNING', events, 'the page is ready')
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

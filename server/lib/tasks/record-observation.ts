import type { ArtifactRef, Observation, StepView, WriteAllowRule } from '#protocol'
import { stepOutcomeOf } from '#protocol'
import type { PendingEvent } from './events'
import { releaseOutcome } from './release'
import { artifactLinks, typedOf } from './step-details'
import { allowedByWhich } from './task-allow'
import type { InFlight, TaskRecord } from './task-record'

/** The step as the task's timeline lists it. */
function stepRow(current: InFlight, observation: Observation, artifacts: ArtifactRef[]): StepView {
  const { action } = current
  return {
    seq: action.seq,
    actionId: action.actionId,
    type: action.type,
    risk: action.risk,
    outcome: stepOutcomeOf(observation),
    url: observation.url,
    title: observation.title,
    errors: observation.errors,
    at: new Date().toISOString(),
    ...(current.goal ? { goal: current.goal } : {}),
    ...(current.targetText ? { target: current.targetText } : observation.targetName ? { target: observation.targetName } : {}),
    ...typedOf(action),
    ...(artifacts.length ? { artifacts: artifactLinks(artifacts) } : {}),
    ...(observation.harmless?.length ? { harmless: observation.harmless } : {}),
    ...(observation.unmet ? { unmet: observation.unmet } : {}),
  }
}

/** The observation as the audit keeps it: what the page showed, not the page itself. */
function observationEvent(actionId: string, observation: Observation, artifacts: ArtifactRef[]): PendingEvent {
  return {
    type: 'observation',
    actionId,
    data: {
      status: observation.status,
      url: observation.url,
      title: observation.title,
      errors: observation.errors,
      ...(observation.extracted === undefined ? {} : { extracted: observation.extracted }),
      ...(observation.targetName ? { targetName: observation.targetName } : {}),
      ...(observation.unmet ? { unmet: observation.unmet } : {}),
      artifacts,
      timing: observation.timing,
      ...(observation.scroll ? { scroll: observation.scroll } : {}),
      ...(observation.settle ? { settle: observation.settle } : {}),
      elementCount: observation.elements?.length ?? 0,
      treeChars: observation.elementTree.length,
      ...(observation.input ? { input: observation.input } : {}),
      ...(observation.command ? { command: observation.command } : {}),
    },
  }
}

/**
 * The step in the task's list and in the audit, with what became of the writes the page sent during it: dropped,
 * let through by a rule, harmless, or (for a release) sent after approval.
 */
export function recordObservation(
  task: TaskRecord,
  current: InFlight,
  observation: Observation,
  artifacts: ArtifactRef[],
  siteRules: readonly WriteAllowRule[],
  events: PendingEvent[],
) {
  const { action } = current
  task.steps.push(stepRow(current, observation, artifacts))
  events.push(observationEvent(action.actionId, observation, artifacts))
  for (const request of observation.dropped ?? []) events.push({ type: 'write.dropped', actionId: action.actionId, data: { request, reason: 'telemetry' } })
  for (const request of observation.allowed ?? []) {
    events.push({ type: 'write.allowed', actionId: action.actionId, data: { request, ...allowedByWhich(request, task, siteRules) } })
  }
  for (const { request, kind } of observation.harmless ?? []) events.push({ type: 'write.harmless', actionId: action.actionId, data: { request, kind } })
  if (action.type === 'release') releaseOutcome(action, observation, events)
}

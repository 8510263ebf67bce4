import type { ObservationError } from '#protocol'
import { stepOutcomeOf } from '#protocol'
import type { Event, Placers, ReplayDraft } from './draft'
import { str } from './draft'
import { reasonDetailsOf } from './reason-details'
import { detailOf } from './step-detail'
import { describeTarget } from './target'
import type { ReplayArtifact, ReplayStep } from './types'

const artifactsOf = (refs: { name: string; label: string }[]): ReplayArtifact[] => refs.map(({ name, label }) => ({ name, label }))
// What a reader words an error by stays with it: a navigation failure's details, a refused site's origin.
const errorsOf = (errors: ObservationError[]): ObservationError[] =>
  errors.map(({ code, message, details, origin }) => ({ code, message, ...(details ? { details } : {}), ...(origin ? { origin } : {}) }))

/** The step an event is about, once it has been proposed. */
export const stepOf = (draft: ReplayDraft, event: { actionId?: string }): ReplayStep | undefined =>
  event.actionId ? draft.byAction.get(event.actionId) : undefined

function proposed(draft: ReplayDraft, event: Event<'action.proposed'>): void {
  const { action, risk, reasons } = event.data
  const { decision, replay } = draft
  const created: ReplayStep = {
    actionId: event.actionId,
    seq: action.seq,
    type: action.type,
    target: describeTarget(action.target, event.data.element) ?? (event.data.targetText ? `“${event.data.targetText}”` : undefined),
    detail: detailOf(action.type, action.params),
    goal: str(action.reason) ?? decision?.nextGoal,
    risk,
    reasons,
    ...reasonDetailsOf(event.data.reasonDetails, reasons),
    proposedAt: event.ts,
    outcome: 'pending',
    screenshots: [],
    ...(decision ? { decision } : {}),
  }
  draft.byAction.set(created.actionId, created)
  if (action.target?.by === 'selector' && !event.data.element) draft.unnamed.add(created.actionId)
  replay.steps.push(created)
  replay.timeline.push({ kind: 'step', step: created })
}

function observed(draft: ReplayDraft, step: ReplayStep, event: Event<'observation'>): void {
  const d = event.data
  step.observation = { status: d.status, url: str(d.url), title: str(d.title), errors: errorsOf(d.errors), ...(d.extracted === undefined ? {} : { extracted: d.extracted }) }
  step.outcome = stepOutcomeOf({ status: d.status, errors: step.observation.errors })
  step.finishedAt = event.ts
  if (d.targetName && draft.unnamed.has(step.actionId)) step.target = `“${d.targetName}”`
  for (const artifact of artifactsOf(d.artifacts)) {
    if (artifact.label === 'before' && !step.before) step.before = artifact
    else if (artifact.label === 'after' && !step.after) step.after = artifact
    else step.screenshots.push(artifact)
  }
}

/** A step from its proposal to what the page showed after it ran (its confirmation: confirmation-events.ts). */
export const stepPlacers: Placers = {
  'action.proposed': proposed,
  'action.dispatched'(draft, event) {
    const step = stepOf(draft, event)
    if (step) step.dispatchedAt ??= event.ts
  },
  observation(draft, event) {
    const step = stepOf(draft, event)
    if (step) observed(draft, step, event)
  },
}

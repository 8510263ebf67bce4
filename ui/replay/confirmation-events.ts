import type { Event, Placers, ReplayDraft } from './draft'
import { str } from './draft'
import { reasonDetailsOf, stepReasons } from './reason-details'
import { stepOf } from './step-events'
import type { ReplayStep } from './types'

function answered(draft: ReplayDraft, step: ReplayStep, event: Event<'confirmation.answered'>): void {
  const d = event.data
  step.confirmation ??= stepReasons(step)
  const by = str(d.by) ?? str(d.source.clientId)
  step.confirmation.answer = {
    approved: d.approved,
    by,
    at: str(d.at) ?? event.ts,
    // The extension names its version on every call; the task's own browser answering is its side panel.
    ...(by && by === draft.replay.clientId && str(d.source.version) ? { inPanel: true } : {}),
    ...(str(d.reason) ? { reason: str(d.reason) } : {}),
    ...(d.source.principal ? { principal: d.source.principal } : {}),
    // An audit written before task rules made only site rules.
    ...(d.approved && d.allowWrites?.length ? { allowed: { scope: d.scope ?? (d.forTask ? 'task' : 'site'), rules: d.allowWrites } } : {}),
  }
  if (!d.approved) {
    step.outcome = 'rejected'
    step.finishedAt = event.ts
  }
}

/** A step's confirmation: asked with its reasons, answered by someone, rejected or approved with rules. */
export const confirmationPlacers: Placers = {
  'confirmation.requested'(draft, event) {
    const step = stepOf(draft, event)
    if (!step) return
    const { reasons, reasonDetails } = event.data
    step.confirmation = reasons.length
      ? { requestedAt: event.ts, reasons, ...reasonDetailsOf(reasonDetails, reasons) }
      : { requestedAt: event.ts, ...stepReasons(step) }
  },
  'confirmation.answered'(draft, event) {
    const step = stepOf(draft, event)
    if (step) answered(draft, step, event)
  },
}

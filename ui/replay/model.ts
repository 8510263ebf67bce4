import type { AuditEvent, KnownAuditEvent, UnknownAuditEvent } from '#protocol'
import { parseAuditEvent } from '#protocol'
import { confirmationPlacers } from './confirmation-events'
import { decisionPlacers } from './decision-events'
import type { Event, Placers, ReplayDraft } from './draft'
import { startDraft } from './draft'
import { pausePlacers } from './pause-events'
import { questionPlacers } from './question-events'
import { stepPlacers } from './step-events'
import { summarise } from './summary'
import { taskPlacers } from './task-events'
import type { Replay } from './types'
import { writePlacers } from './write-events'

export type * from './types'

const shownNowhere = () => {}

const placers: Placers = {
  ...taskPlacers,
  ...decisionPlacers,
  ...stepPlacers,
  ...confirmationPlacers,
  ...questionPlacers,
  ...pausePlacers,
  ...writePlacers,
  'report.received': shownNowhere,
  'audit.recovered': shownNowhere,
}

/** An event the page cannot read, kept in the timeline as such and counted. */
function placeUnknown({ replay }: ReplayDraft, { event, problem }: UnknownAuditEvent): void {
  const { type, seq, ts } = event
  const count = problem ? replay.malformed : replay.unknown
  count[type] = (count[type] ?? 0) + 1
  replay.timeline.push({ kind: 'unknown', event: { at: ts, seq, type, ...(problem ? { problem } : {}) } })
}

function place(draft: ReplayDraft, event: KnownAuditEvent): void {
  // The placer of the event's own type (one that takes an event of a type other than its key is a type error).
  const placer = placers[event.type] as ((draft: ReplayDraft, event: Event<KnownAuditEvent['type']>) => void) | undefined
  if (placer) return placer(draft, event)
  // A type this version knows but this page does not show yet: never silently.
  draft.replay.unknown[event.type] = (draft.replay.unknown[event.type] ?? 0) + 1
}

/**
 * Turns a task's audit events into what a person reviews: the steps with their goal, target, risk,
 * confirmation, result and screenshots, the planner's decisions and what they cost, questions and pauses.
 * Pure and forgiving: each event is read through its schema (parseAuditEvent); one of a type it does not know,
 * or whose data is not as its type says, is kept in the timeline as such and counted, so an old or newer audit
 * still replays.
 */
export function buildReplay(events: readonly AuditEvent[]): Replay {
  const draft = startDraft(events)
  for (const raw of events) {
    const event = parseAuditEvent(raw)
    if (event.type === 'unknown') placeUnknown(draft, event)
    else place(draft, event)
  }
  summarise(draft.replay, events)
  return draft.replay
}

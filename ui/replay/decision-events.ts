import type { Usage } from '#protocol'
import type { Event, Placers } from './draft'
import { str } from './draft'
import type { ReplayDecision } from './types'

function decisionOf(event: Event<'planner.decision'>): ReplayDecision {
  const d = event.data
  const decision = d.decision
  const error = str(d.error) ?? (decision.kind === 'fail' ? str(decision.message) : undefined)
  const usage = d.usage && Object.keys(d.usage).length ? d.usage : undefined
  return {
    at: event.ts,
    planner: str(d.planner),
    model: str(d.model),
    nextGoal: str(d.output?.next_goal),
    thinking: str(d.output?.thinking),
    kind: decision.kind,
    usage,
    ...(error ? { error } : {}),
    ...(decision.kind === 'fail' ? { code: decision.code, ...(decision.details ? { details: decision.details } : {}) } : {}),
  }
}

/** The planner's decisions, in the timeline and in what the task cost. */
export const decisionPlacers: Placers = {
  'planner.decision'(draft, event) {
    const decision = decisionOf(event)
    draft.decision = decision
    draft.replay.timeline.push({ kind: 'decision', decision })
    const usage = draft.replay.totals.usage
    for (const [key, value] of Object.entries(decision.usage ?? {})) usage[key as keyof Usage] += value ?? 0
  },
}

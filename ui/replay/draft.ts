import type { AuditEvent, KnownAuditEvent, Usage } from '#protocol'
import type { Replay, ReplayDecision, ReplayPause, ReplayQuestion, ReplayStep } from './types'

/** One audit event, its data typed by its type. */
export type Event<T extends KnownAuditEvent['type']> = Extract<KnownAuditEvent, { type: T }>

/** The replay while its events are read one by one, with what the next events may refer back to. */
export interface ReplayDraft {
  replay: Replay
  byAction: Map<string, ReplayStep>
  // Steps whose target is only a CSS selector: the page names the element once the step has run.
  unnamed: Set<string>
  /** The planner's last decision: the steps proposed after it come from it. */
  decision?: ReplayDecision
  openPause?: ReplayPause
  openQuestion?: ReplayQuestion
}

/** How one type of event is placed in the replay. */
export type Placers = { [T in KnownAuditEvent['type']]?: (draft: ReplayDraft, event: Event<T>) => void }

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)

const emptyUsage = (): Usage => ({ llmCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, latencyMs: 0 })

export function startDraft(events: readonly AuditEvent[]): ReplayDraft {
  const replay: Replay = {
    taskId: events[0]?.taskId ?? '',
    goal: '',
    steps: [],
    timeline: [],
    questions: [],
    pauses: [],
    totals: { steps: 0, done: 0, failed: 0, rejected: 0, confirmations: 0, approved: 0, screenshots: 0, errors: 0, usage: emptyUsage(), durationMs: 0 },
    unknown: {},
    malformed: {},
  }
  return { replay, byAction: new Map(), unnamed: new Set() }
}

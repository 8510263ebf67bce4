import type { AuditEvent } from '#protocol'
import { isEvidenceStep, stepNumbers } from '#protocol'
import type { Replay } from './types'

/** What is read from the whole record once its events are placed: the browser's name, the step numbers, the totals. */
export function summarise(replay: Replay, events: readonly AuditEvent[]): void {
  // The task's browser by name: the User-Agent of any call it made itself.
  for (const raw of events) {
    const source = (raw.data as { source?: { clientId?: unknown; userAgent?: unknown } } | undefined)?.source
    if (replay.clientId && source?.clientId === replay.clientId && typeof source.userAgent === 'string') {
      replay.clientAgent = source.userAgent
      break
    }
  }

  // The same numbers the side panel shows: the pictures taken before asking are not counted.
  const numbers = stepNumbers(replay.steps)
  replay.steps.forEach((step, i) => {
    if (numbers[i] !== undefined) step.number = numbers[i]
  })
  const t = replay.totals
  for (const step of replay.steps) {
    t.screenshots += (step.before ? 1 : 0) + (step.after ? 1 : 0) + step.screenshots.length
    t.errors += step.observation?.errors.length ?? 0
    // A picture taken before asking is part of the record, not a step: counted with neither the steps nor their outcomes.
    if (isEvidenceStep(step)) continue
    t.steps++
    if (step.outcome === 'done') t.done++
    else if (step.outcome === 'failed') t.failed++
    else if (step.outcome === 'rejected') t.rejected++
    if (step.confirmation) t.confirmations++
    if (step.confirmation?.answer?.approved) t.approved++
  }
  if (events.length) t.durationMs = Math.max(0, Date.parse(events[events.length - 1].ts) - Date.parse(events[0].ts)) || 0
}

import type { AuditEvent, ObservationError } from '#protocol'

/**
 * The steps a task's audit calls done although their own observation found the page unchanged (ACTION_NO_EFFECT):
 * a done that is not true, which a task that ends SUCCEEDED must never rest on. One line per such step.
 */
export function falseDones(events: readonly AuditEvent[]): string[] {
  const out: string[] = []
  for (const event of events) {
    if (event.type !== 'observation' || event.data.status !== 'done') continue
    for (const error of (event.data.errors ?? []) as ObservationError[]) {
      if (error.code !== 'ACTION_NO_EFFECT') continue
      const effect = error.effect ? ` (expected ${error.effect.expected}, found ${error.effect.found})` : ''
      out.push(`${event.actionId}: done, yet ${error.message}${effect}`)
    }
  }
  return out
}

/** Throws when a SUCCEEDED task's audit rests on a false done: the e2e suite takes no task's word over its page. */
export function assertNoFalseDone(taskId: string, events: readonly AuditEvent[]): void {
  const wrong = falseDones(events)
  if (wrong.length) throw new Error(`task ${taskId} ended SUCCEEDED on steps whose page did not change:\n${wrong.join('\n')}`)
}

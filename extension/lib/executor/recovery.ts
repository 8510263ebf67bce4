import { Observation } from '#protocol'
import type { ActOutcome } from '../messages'
import { createObservationBuilder } from './observation'
import type { InFlight } from './state'

/** The result a page stored for an action whose worker died before reporting it. */
export function recoveredObservation(result: ActOutcome, now: () => number): Observation {
  const obs = createObservationBuilder(now(), now)
  obs.page(result.page)
  if (result.extracted !== undefined) obs.extracted(result.extracted)
  for (const [k, v] of Object.entries(result.timing)) obs.mark(`page.${k}`, v)
  for (const error of result.errors) obs.error(error)
  obs.mark('recovered', 1)
  return Observation.parse(result.status === 'done' ? obs.done() : obs.failed())
}

/** An action that started and left no result: it may or may not have happened, so it is not run again. */
export function unknownOutcome(inflight: InFlight, now: () => number): Observation {
  const obs = createObservationBuilder(inflight.startedAt, now)
  obs.mark('recovered', 1)
  return Observation.parse(obs.failed({
    code: 'TIMEOUT',
    message: 'The extension stopped while this action ran and it left no result; its outcome is unknown, so it was not run again.',
  }))
}

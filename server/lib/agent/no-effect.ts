import type { ObservationError, UnmetEffect } from '#protocol'
import type { TaskRecord } from '../tasks/task-record'
import { cut } from './prompt/tokens'

/** A no-effect result as one plain sentence: the step, that the page did not change, and expected against found. */
export function noEffectLine(type: string, error: ObservationError): string {
  const effect = error.effect ? `: expected ${cut(error.effect.expected, 200)}, found ${cut(error.effect.found, 200)}` : `: ${cut(error.message, 200)}`
  return `${type}: NO EFFECT, the page did not change${effect}`
}

/** A step that did something, though not what it was expected to leave: the model checks the page before going on. */
export function unmetLine(type: string, unmet: UnmetEffect): string {
  return `${type}: done, and the page changed (${unmet.changed.join(', ')}), but not as expected: expected ${cut(unmet.expected, 200)}, found ${cut(unmet.found, 200)}; check the page before going on`
}

/**
 * The note the model reads first after a step that ran and left the page as it was: what the step was, expected
 * against found, and to try another way (another element, another action) instead of the same step again, which
 * would only do nothing again until the loop guard stops the task.
 */
export function noEffectNote(outcome: TaskRecord['lastOutcome']): string | undefined {
  if (outcome?.kind !== 'failed') return undefined
  const error = outcome.errors.find((e) => e.code === 'ACTION_NO_EFFECT')
  if (!error) return undefined
  return `Your last action had NO EFFECT (ACTION_NO_EFFECT). ${noEffectLine(outcome.type, error)}. Repeating it will not work: try another way, such as another element (the field's label, an option in its list, a nearby button), another action (select instead of type, press a key, click instead of scroll), or ask_user.`
}

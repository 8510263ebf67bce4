import type { Observation } from '#protocol'
import type { TaskRecord } from '../tasks/task-record'
import { repeatsOnPage, type LoopLimits } from './loop-guard'
import { noEffectNote } from './no-effect'
import type { LlmPlannerState } from './planner-state'

/** What the model is told besides the page and the history: a step that did nothing, a loop, failures so far. */
export function promptNotes(outcome: TaskRecord['lastOutcome'], state: LlmPlannerState, observation: Observation, loopLimits: LoopLimits, maxFailures: number): string[] {
  const notes: string[] = []
  // Said first, before any loop warning: the model learns the step did nothing on the very next prompt.
  const nothing = noEffectNote(outcome)
  if (nothing) notes.push(nothing)
  const repeats = repeatsOnPage(state.loop, observation)
  if (repeats >= loopLimits.warnAt) {
    notes.push(`You have chosen the same actions ${repeats} times on this unchanged page. They are not working: do something different, or ask_user.`)
  }
  if (state.failures > 0) notes.push(`${state.failures} failure(s) in a row; the task stops at ${maxFailures}.`)
  return notes
}

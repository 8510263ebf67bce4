import { isEvidenceStep } from './evidence'
import type { StepView } from './task'

type Numberable = Pick<StepView, 'type' | 'goal'>

/**
 * The numbers a person counts a task's steps by: its own actions 1, 2, 3… in order; the pictures taken before
 * asking the person are part of the record, not steps, so they get none. The panel, the console, the replay and
 * every text that names a step ("you rejected step 4", "ran all 9 steps") use these numbers.
 */
export function stepNumbers(steps: readonly Numberable[]): (number | undefined)[] {
  let n = 0
  return steps.map((step) => (isEvidenceStep(step) ? undefined : ++n))
}

/** How many steps a person counts among these. */
export const countSteps = (steps: readonly Numberable[]): number => steps.filter((s) => !isEvidenceStep(s)).length

/** Steps a replay never runs: it looks at the page again itself, and a held write's release is the engine's. */
const NOT_REPLAYED = new Set(['observe', 'screenshot', 'release'])

/**
 * Whether a task has something to replay as a skill: at least one of its actions worked (a page opened, a click, a
 * typed text…). Failed, rejected or taken-over steps and pictures alone would save a skill that does nothing.
 */
export const hasStepToReplay = (steps: readonly Pick<StepView, 'type' | 'goal' | 'outcome'>[]): boolean =>
  steps.some((s) => s.outcome === 'done' && !NOT_REPLAYED.has(s.type) && !isEvidenceStep(s))

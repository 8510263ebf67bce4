import type { Action, ArtifactLabel, BarrierMode } from '#protocol'
import { createObservationBuilder, type ObservationBuilder } from '../observation'
import type { Shot } from '../screenshot'
import type { Tab } from '../task-tab'
import type { RunDeps } from './deps'

export type LiveTab = Tab & { id: number }

/** What the step did to the task's tabs: the tab it opened and followed, if any. */
export interface TabMoves {
  opened: number | null
  /** The last step's tail, handed to this step: the barrier still holds its tab (see StepTail.end). */
  handed: { actionId: string; tabId: number } | null
  /** How an in-page step's writes were watched. */
  barrier?: BarrierMode
}

/** One step as its phases share it: what it was asked, what it runs with, and what it has found so far. */
export interface StepContext {
  readonly deps: RunDeps
  readonly action: Action
  readonly moves: TabMoves
  readonly obs: ObservationBuilder
  readonly now: () => number
  readonly loadTimeoutMs: number
  shoot(tab: LiveTab, label: ArtifactLabel): Promise<Shot>
  /** Set while the barrier watches the step: whether it holds a write the step sent. */
  heldYet: (() => Promise<boolean>) | undefined
  /** Whether the step's grace may run on after its report (see RunDeps.tail), and until when. */
  tailable: boolean
  tailUntil: number | null
}

export function createStepContext(deps: RunDeps, action: Action, moves: TabMoves): StepContext {
  const now = deps.now ?? Date.now
  return {
    deps,
    action,
    moves,
    obs: createObservationBuilder(now(), now),
    now,
    loadTimeoutMs: deps.loadTimeoutMs ?? 30_000,
    // The server's redaction settings travel with the action: what it hides in text is hidden in pictures too.
    shoot: (tab, label) => deps.screenshots.capture(tab, label, action.redact),
    heldYet: undefined,
    tailable: true,
    tailUntil: null,
  }
}

export const withEvidence = (action: Action) => action.risk === 'medium' || action.risk === 'high'

export async function shootBefore(step: StepContext, current: LiveTab) {
  step.obs.shot(await step.shoot(current, 'before'))
  step.obs.mark('beforeShotMs')
}

import type { BarrierMode, ObservationInput } from '#protocol'
import type { LiveTab, StepContext } from './context'
import type { RunDeps } from './deps'

/** How an in-page step's writes are watched: `barrier` is set only when it engaged (held), `blocking` when the fallback blocks. */
export interface WritesWatch {
  barrier: NonNullable<RunDeps['barrier']> | undefined
  blocking: boolean
  watched: BarrierMode
}

/** Engages the barrier, or its fallback the block, on the step's tab before anything of the step reaches the page. */
export async function watchWrites(step: StepContext, current: LiveTab): Promise<WritesWatch> {
  const { deps, action, moves } = step
  const barrier = action.confirmation ? undefined : deps.barrier
  const inherit = moves.handed?.tabId === current.id ? { inherit: moves.handed.actionId } : {}
  const barrierStep = { taskId: action.taskId, stepId: action.actionId, pageUrl: current.url, redact: action.redact, allow: action.allowWrites, askAlways: action.askAlways, ...inherit }
  // Beside the debugger only WebSocket openings are blocked (CDP cannot pause them); without it, every write. Both
  // are set up side by side, and a barrier that did not engage has the block set again for every write.
  const block = barrier ? deps.block : undefined
  const [barred, socketsBlocked] = await Promise.all([
    !!barrier && barrier.engage(current.id, barrierStep),
    !!block && block.engage(current.id, current.url, action.allowWrites, 'sockets'),
  ])
  if (barred && 'inherit' in inherit) moves.handed = null
  const blocking = !!block && (barred ? socketsBlocked : await block.engage(current.id, current.url, action.allowWrites, 'writes'))
  // The fallback blocks writes only while the step runs: a write its handlers send later must be waited for.
  step.tailable = !blocking || barred
  const watched: BarrierMode = barred ? 'held' : blocking ? 'blocked' : 'off'
  // A confirmed step runs with no barrier (it was asked about already): it says nothing of how the next is watched.
  if (!action.confirmation) moves.barrier = watched
  return { barrier: barred ? barrier : undefined, blocking, watched }
}

/** A step that went as planned, with time left in its grace, leaves the guard and the barrier to its tail. */
export async function beginTail(step: StepContext, current: LiveTab, result: ObservationInput, barred: boolean): Promise<boolean> {
  const { deps, action } = step
  if (step.tailUntil === null || !deps.tail || step.tailUntil <= step.now() || result.held?.length || result.blocked?.length) return false
  if (deps.guard?.refusals().page) return false
  const tab = (await deps.tabs.get(current.id).catch(() => null)) as LiveTab | null
  if (!tab) return false
  deps.tail.begin({ taskId: action.taskId, actionId: action.actionId, tabId: tab.id, until: step.tailUntil, barred })
  return true
}

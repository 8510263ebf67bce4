import type { Hold } from './held-store'

/**
 * A step that fires the page's handlers is reported as soon as its page has settled, but a handler may still act a
 * moment later (a timer that navigates, a debounced save). For that moment — its tail — the navigation guard and
 * the write barrier stay as the step left them, so whatever the page sends or opens is still stopped; the next step
 * of the task first hears what the tail caught, and does not run before the person has decided.
 */
export interface StepTail {
  /** The step's handlers may act until `until` (ms): keep the guard and the barrier on the tab until then. */
  begin(tail: { taskId: string; actionId: string; tabId: number; until: number; barred: boolean }): void
  /**
   * A step of `taskId` is about to run (or, with null, the task stops): says what the tail of the task's last step
   * caught — writes held, a site the page tried to open — and ends it then. A tail that caught nothing is
   * - taken over by a step that holds the page's writes itself: the barrier stays up for it (see `handed`);
   * - kept on by a step that only looks (observe, screenshot, navigate): its barrier runs to its time, and the step
   *   engages the guard for itself;
   * - ended for anything else (an approved step, a release), before it runs.
   */
  end(taskId: string | null, next?: NextStep): Promise<TailEnd>
  /** Whether a tail holds the guard (its end releases it, not the report). */
  guarding(): boolean
  running(): boolean
}

export type NextStep = 'takes-over' | 'looks' | 'other'

export interface TailEnd {
  late: LateEffects | null
  /** The tail handed over: the barrier still holds the tab for this step, whose writes the next step takes as its own. */
  handed: { actionId: string; tabId: number } | null
}

export interface LateEffects {
  /** The step whose handlers acted late. */
  after: string
  holds: Hold[]
  /** The site the page tried to open, which the guard stopped. */
  refused: string | null
}

export interface StepTailDeps {
  barrier: { held(stepId: string): Promise<Hold[]>; stepEnded(tabId: number): Promise<void> }
  guard: { refusals(): { page: string | null }; release(): Promise<void> }
  now?: () => number
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (timer: unknown) => void
}

interface Running {
  taskId: string
  actionId: string
  tabId: number
  barred: boolean
  /** Whether the guard is still this tail's, not taken by a later step. */
  guarded: boolean
  timer: unknown
}

const NOTHING: TailEnd = { late: null, handed: null }

export function createStepTail(deps: StepTailDeps): StepTail {
  const now = deps.now ?? Date.now
  const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms))
  const clearTimer = deps.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>))
  let tail: Running | null = null
  /** What a tail caught when it ran out before the task's next step came: kept for that step. */
  const caught = new Map<string, { after: string; barred: boolean; refused: string | null }>()

  const heldBy = async (step: { actionId: string; barred: boolean }) => (step.barred ? deps.barrier.held(step.actionId) : [])

  async function stop(): Promise<void> {
    const ending = tail
    if (!ending) return
    tail = null
    clearTimer(ending.timer)
    const refused = ending.guarded ? deps.guard.refusals().page : null
    // With writes held the barrier lets anything new go on while they wait (see WriteBarrier.stepEnded).
    if (ending.barred) await deps.barrier.stepEnded(ending.tabId)
    if (ending.guarded) await deps.guard.release()
    caught.set(ending.taskId, { after: ending.actionId, barred: ending.barred, refused })
    // Tasks that ended leave theirs behind: a few are plenty.
    if (caught.size > 20) caught.delete(caught.keys().next().value!)
  }

  return {
    begin({ taskId, actionId, tabId, until, barred }) {
      const running: Running = { taskId, actionId, tabId, barred, guarded: true, timer: undefined }
      running.timer = setTimer(() => {
        if (tail === running) void stop().catch((error: unknown) => console.warn('[tandem] ending a step’s tail failed', error))
      }, Math.max(0, until - now()))
      tail = running
    },
    async end(taskId, next = 'other') {
      const ending = tail
      const quiet = async (t: Running) => !(t.guarded && deps.guard.refusals().page) && !(await heldBy(t)).length
      if (ending && next !== 'other' && ending.taskId === taskId && (await quiet(ending)) && tail === ending) {
        if (next === 'looks') {
          // The step engages the guard for itself; the tail keeps only the barrier.
          ending.guarded = false
          return NOTHING
        }
        tail = null
        clearTimer(ending.timer)
        return { late: null, handed: ending.barred ? { actionId: ending.actionId, tabId: ending.tabId } : null }
      }
      await stop()
      if (taskId === null) return NOTHING
      const tailed = caught.get(taskId)
      caught.delete(taskId)
      if (!tailed) return NOTHING
      // Read now: a write the person already refused (a pause in between) is no longer held.
      const holds = await heldBy({ actionId: tailed.after, barred: tailed.barred })
      return holds.length || tailed.refused ? { late: { after: tailed.after, holds, refused: tailed.refused }, handed: null } : NOTHING
    },
    guarding: () => !!tail?.guarded,
    running: () => tail !== null,
  }
}

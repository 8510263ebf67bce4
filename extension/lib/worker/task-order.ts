import type { TaskStatus } from '#protocol'

/**
 * Keeps what the worker applies of a task's status in order. The status arrives from several places at once
 * (a status check every few seconds, the takeover's own pause, resume and cancel, the panel's task-changed,
 * next and report replies), and an answer that was asked for before another landed must not undo it: a check
 * under way when the person takes over would otherwise hand the page back to the agent.
 *
 * Every answer holds a place in one line of numbers. A status check takes its place as it leaves, since the
 * server answers it with what was true then or later. A reply to the worker's own change (pause, resume,
 * cancel) and a next or report reply take theirs as they arrive: they say what is true once the change is made
 * (or, for the long-poll, once the server answered), so any check still under way at that moment is older.
 * Memory is enough: a restarted worker has no request under way.
 */
export function createTaskOrder() {
  let last = 0
  const applied = new Map<string, { place: number; status: TaskStatus }>()
  return {
    /** A place in line for a request about to leave. */
    take: (): number => ++last,
    /**
     * Admits an answer holding `place` when it is not older than what was applied to the task: it becomes what
     * was applied, and its place comes back (null: too old, drop it). Without a place, the answer is as new as
     * it gets (it just arrived).
     */
    admit(taskId: string, status: TaskStatus, place: number = ++last): number | null {
      if ((applied.get(taskId)?.place ?? 0) > place) return null
      applied.set(taskId, { place, status })
      return place
    },
    /** Whether the answer at `place` is still the newest applied (a newer one may land while it is being applied). */
    current: (taskId: string, place: number): boolean => (applied.get(taskId)?.place ?? 0) === place,
    /** The last status applied to the task, if this worker applied one. */
    known: (taskId: string): TaskStatus | null => applied.get(taskId)?.status ?? null,
  }
}
export type TaskOrder = ReturnType<typeof createTaskOrder>

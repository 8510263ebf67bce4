import { isTerminal, runsInPage, type Action, type TaskStatus } from '#protocol'
import { updateActivity } from '../executor/state'
import type { StopWhy } from '../messages'
import type { ServerClient } from '../server/client'
import type { TaskOrder } from './task-order'
import { statusOf } from './task-status'

export interface TaskChangesDeps {
  server: Pick<ServerClient, 'status'>
  /**
   * Ends the task's action running in the page (what the indicator's Stop does), as taken over when the person
   * paused it; true when there was one.
   */
  stopAction: (taskId: string, why?: StopWhy) => Promise<boolean>
  /** Follows a status: badge, takeover note, indicator (see followStatus). */
  follow: (taskId: string, status: TaskStatus, place: number) => Promise<void>
  /** The one order of every status the worker applies (shared with the takeover and the executor). */
  order: TaskOrder
  /** How often a running in-page action looks at its task's status. */
  everyMs?: number
}

export interface TaskChange {
  status: TaskStatus | null
  stopped: boolean
}

/**
 * Changes made to a task away from its page (the side panel, the console, any API client) reach the worker
 * here. It follows the new status at once, and when the task has ended or been paused it ends the step still
 * running in the page, whose result then says it was stopped or taken over, instead of letting a long wait run out
 * its time.
 */
export function createTaskChanges(deps: TaskChangesDeps) {
  const everyMs = deps.everyMs ?? 2000

  /** Looks at the task now; the status comes back only when it is news no older than what was applied. */
  async function look(taskId: string): Promise<{ status: TaskStatus | null; place: number | null }> {
    const asked = deps.order.take()
    const status = await statusOf(deps.server, taskId)
    return { status, place: status ? deps.order.admit(taskId, status, asked) : null }
  }

  async function apply(taskId: string, status: TaskStatus, place: number): Promise<TaskChange> {
    // A paused task is the person's: a long wait does not run on under their hands and then blame the page.
    const why: StopWhy | null = isTerminal(status) ? 'stopped' : status === 'PAUSED' ? 'taken-over' : null
    const stopped = why ? await deps.stopAction(taskId, why).catch(() => false) : false
    await updateActivity(() => (deps.order.current(taskId, place) ? { task: { taskId, status } } : {}))
    await deps.follow(taskId, status, place)
    return { status, stopped }
  }

  return {
    /** The panel changed the task (pause, resume, cancel): look at it now rather than after the step in flight. */
    async changed(taskId: string): Promise<TaskChange> {
      const { status, place } = await look(taskId)
      if (status && place !== null) return apply(taskId, status, place)
      // Unknown, or overtaken by a newer answer already applied: say what the worker holds.
      return { status: deps.order.known(taskId), stopped: false }
    },

    /**
     * Looks at the task's status every few seconds while one of its in-page actions runs, since the executor
     * hears nothing from the server until the action ends. Returns the end of the watch.
     */
    watch(action: Pick<Action, 'taskId' | 'type'>): () => void {
      if (!runsInPage(action.type)) return () => undefined
      let over = false
      let last: TaskStatus | null = null
      let timer: ReturnType<typeof setTimeout> | undefined
      const next = async () => {
        const { status, place } = await look(action.taskId)
        if (over) return
        if (status && place !== null && status !== last) {
          last = status
          await apply(action.taskId, status, place).catch((error: unknown) => console.warn('[tandem] following a task change failed', error))
          if (isTerminal(status)) return
        }
        if (!over) timer = setTimeout(() => void next(), everyMs)
      }
      timer = setTimeout(() => void next(), everyMs)
      return () => {
        over = true
        clearTimeout(timer)
      }
    },
  }
}
export type TaskChanges = ReturnType<typeof createTaskChanges>

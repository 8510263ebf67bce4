import type { TaskStatus } from '#protocol'
import { readState, updateActivity, type ExecutorState } from '../executor/state'
import { indicatorStateFor, takeoverReason, takesOver, type IndicatorState, type TakeoverInput } from '../indicator/state'
import type { ContentEvent, ContentEventReply, StopWhy } from '../messages'
import type { ServerClient } from '../server/client'
import { isServerError } from '../server/errors'
import { taskOfTab } from './indicator-sync'
import type { TaskOrder } from './task-order'
import { statusOf } from './task-status'

export interface TakeoverDeps {
  server: Pick<ServerClient, 'status' | 'pause' | 'resume' | 'cancel'>
  /** Pulls work at once (after a resume). */
  wake: () => void
  /** Ends the task's action in flight, if any: a stopped or taken-over task must not wait out a long step. */
  stopAction: (taskId: string, why?: StopWhy) => Promise<unknown>
  /** Lets go of the task's tab (the navigation guard, the debugger): the person in control goes wherever they like. */
  release?: (taskId: string) => Promise<void>
  /** The one order of every status the worker applies (shared with the status checks and the executor). */
  order: TaskOrder
  readState?: () => Promise<ExecutorState>
  now?: () => number
}

/**
 * The worker's side of a takeover: the person's input in a task tab pauses that task (once, and only while the
 * agent is in control of it), and the indicator's Resume / Stop resume or cancel it. Every answer is what the
 * indicator shows next.
 */
export function createTakeover(deps: TakeoverDeps) {
  const read = deps.readState ?? readState
  const now = deps.now ?? Date.now
  /** One change per task at a time: a burst of input while the pause is on its way is the same takeover. */
  const busy = new Map<string, Promise<IndicatorState>>()

  /** The task's status as the server says it now; what the worker already holds when a newer answer overtook it. */
  async function look(taskId: string): Promise<TaskStatus | null> {
    const asked = deps.order.take()
    const status = await statusOf(deps.server, taskId)
    if (!status) return null
    return deps.order.admit(taskId, status, asked) === null ? deps.order.known(taskId) : status
  }

  async function settled(taskId: string, status: TaskStatus | null, fallback: IndicatorState): Promise<IndicatorState> {
    if (!status) return fallback
    const place = deps.order.admit(taskId, status)!
    await updateActivity((activity) =>
      deps.order.current(taskId, place) ? { task: { taskId, status }, takeover: status === 'PAUSED' ? activity.takeover : null } : {},
    )
    return indicatorStateFor(status)
  }

  async function pause(taskId: string, input: TakeoverInput): Promise<IndicatorState> {
    const status = await look(taskId)
    // Waiting for a decision, already paused or finished: the person's input takes nothing over.
    if (!status || !takesOver(status)) return settled(taskId, status, 'ongoing')
    const reason = takeoverReason(input)
    try {
      const reply = await deps.server.pause({ taskId, reason })
      // The pause is news as of its answer: a status check still under way is older, and must not undo it.
      deps.order.admit(taskId, reply.status)
      // The step in flight ends now, as taken over: the page is the person's, not the step's to wait out.
      if (reply.status === 'PAUSED') {
        await deps.stopAction(taskId, 'taken-over').catch(() => undefined)
        await deps.release?.(taskId).catch(() => undefined)
      }
      await updateActivity({ task: { taskId, status: reply.status }, takeover: { taskId, input, reason, at: now() } })
      return indicatorStateFor(reply.status)
    } catch (error) {
      if (isServerError(error) && error.code === 'CONFLICT') return settled(taskId, await look(taskId), 'ongoing')
      console.warn(`[tandem] could not pause task ${taskId} for the takeover: ${(error as Error)?.message ?? error}`)
      return 'ongoing'
    }
  }

  async function command(taskId: string, which: 'resume' | 'stop'): Promise<IndicatorState> {
    try {
      const reply =
        which === 'resume'
          ? await deps.server.resume({ taskId, reason: 'the person handed control back from the page' })
          : await deps.server.cancel({ taskId, reason: 'the person stopped the task from the page' })
      deps.order.admit(taskId, reply.status)
      await updateActivity({ task: { taskId, status: reply.status }, takeover: null })
      if (which === 'resume') deps.wake()
      else await deps.stopAction(taskId).catch(() => undefined)
      return indicatorStateFor(reply.status)
    } catch (error) {
      console.warn(`[tandem] could not ${which} task ${taskId}: ${(error as Error)?.message ?? error}`)
      return settled(taskId, await look(taskId), 'takeover')
    }
  }

  return {
    /** Handles one event from the content script of `tabId`. */
    async handle(event: ContentEvent, tabId: number): Promise<ContentEventReply> {
      const taskId = taskOfTab(await read(), tabId)
      if (!taskId) return { state: 'idle' }
      const running = busy.get(taskId)
      if (running) return { state: await running }
      const work = event.kind === 'takeover' ? pause(taskId, event.input) : command(taskId, event.command)
      busy.set(taskId, work)
      try {
        return { state: await work }
      } finally {
        busy.delete(taskId)
      }
    },
  }
}
export type Takeover = ReturnType<typeof createTakeover>

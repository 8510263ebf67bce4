import type { StatusView, TaskStatus, TaskView } from '#protocol'
import { notFound } from '../http/errors'
import type { EngineDeps } from './core'
import { toTaskView } from './task-record'

/** Read-only views of tasks for the panel, the console and the API. */
export function createTaskViews({ store }: EngineDeps) {
  return {
    async status(taskId: string): Promise<StatusView> {
      const task = await store.get(taskId)
      if (!task) throw notFound(`No task ${taskId}.`)
      const current = task.current
      return {
        task: toTaskView(task),
        currentAction: current?.action ?? null,
        pendingConfirmation:
          current?.phase === 'awaiting_confirmation'
            ? { actionId: current.action.actionId, action: current.action, risk: current.action.risk, reasons: current.reasons }
            : null,
        steps: task.steps,
        usage: task.usage,
      }
    },

    async tasks(filter: { status?: TaskStatus; limit?: number } = {}): Promise<TaskView[]> {
      return (await store.list())
        .filter((t) => !filter.status || t.status === filter.status)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
        .slice(0, filter.limit ?? 100)
        .map(toTaskView)
    },
  }
}

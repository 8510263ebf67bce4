import type { StatusView, TaskStatus, TaskView } from '#protocol'
import { countSteps, isEvidenceStep, stepNumbers } from '#protocol'
import { notFound } from '../http/errors'
import { redactFor } from '../privacy/task-redaction'
import type { EngineDeps } from './deps'
import { needsDecision, toTaskView } from './task-record'

/** Read-only views of tasks for the panel, the console and the API. */
export function createTaskViews(deps: EngineDeps, planningNow: (taskId: string) => boolean = () => false) {
  const { store } = deps
  return {
    async status(taskId: string): Promise<StatusView> {
      const task = await store.get(taskId)
      if (!task) throw notFound(`No task ${taskId}.`)
      const current = task.current
      const numbers = stepNumbers(task.steps)
      const steps = task.steps.map((step, i) => (numbers[i] === undefined ? step : { ...step, number: numbers[i] }))
      const counted = current && !current.isEvidence && !isEvidenceStep({ type: current.action.type, goal: current.goal })
      return redactFor(task, deps)<StatusView>({
        task: toTaskView(task),
        currentAction: current?.action ?? null,
        pendingConfirmation:
          current?.phase === 'awaiting_confirmation'
            ? {
                actionId: current.action.actionId,
                action: current.action,
                risk: current.action.risk,
                reasons: current.reasons,
                ...(current.reasonDetails?.length ? { reasonDetails: current.reasonDetails } : {}),
                ...(current.goal ? { goal: current.goal } : {}),
                ...(current.evidence ? { evidence: current.evidence } : {}),
              }
            : null,
        steps,
        usage: task.usage,
        thinking: planningNow(task.id) && needsDecision(task),
        ...(counted ? { currentNumber: countSteps(task.steps) + 1 } : {}),
        ...(task.exchanges?.length ? { exchanges: task.exchanges } : {}),
      })
    },

    async tasks(filter: { status?: TaskStatus; limit?: number } = {}): Promise<TaskView[]> {
      return (await store.list())
        .filter((t) => !filter.status || t.status === filter.status)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
        .slice(0, filter.limit ?? 100)
        .map((task) => redactFor(task, deps)(toTaskView(task)))
    },
  }
}

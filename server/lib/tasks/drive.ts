import type { ScriptStep, TaskStatus } from '#protocol'
import { isTerminal } from '#protocol'
import { conflict, notFound } from '../http/errors'
import type { RequestSource } from '../http/source'
import { applyDecision } from './apply'
import { taskChannel } from './channels'
import type { Mutate } from './core'
import type { EngineDeps } from './deps'
import type { Decision } from './planner'
import { proposeNext } from './propose'
import { needsDecision, type TaskRecord } from './task-record'

/** Statuses in which the task waits for the person, whatever the MCP client does. */
const PERSON_WAITS: TaskStatus[] = ['WAITING_CONFIRMATION', 'WAITING_USER', 'PAUSED']

/** The MCP client may decide the next step: its task has nothing in flight, nothing queued and no one to wait for. */
export const isDriversTurn = (task: TaskRecord) => task.mode === 'mcp' && needsDecision(task)

const decisionOf = (form: ScriptStep): Decision =>
  form.type === 'done'
    ? { kind: 'done', success: form.success, text: form.text, ...(form.data === undefined ? {} : { data: form.data }) }
    : form.type === 'ask_user'
      ? { kind: 'ask', question: form.question }
      : { kind: 'act', actions: [form] }

function busy(task: TaskRecord): string {
  if (task.status === 'WAITING_CONFIRMATION') return 'The task is waiting for the person to approve or reject a step in Tandem’s side panel; only they can answer it.'
  if (task.status === 'WAITING_USER') return 'The task is waiting for the person to answer a question in Tandem’s side panel; only they can answer it.'
  if (task.status === 'PAUSED') return 'The person has taken over the page; the task goes on when they resume it.'
  return 'A step of this task is still running: wait for it (task_status with waitMs) before sending the next.'
}

/**
 * A task an MCP client drives: the client is its planner. Each step it sends is applied as a planner's decision
 * and proposed through the same gate as Tandem's own (risk rules, confirmation by the person); nothing here can
 * approve or answer for the person.
 */
export function createTaskDriver(deps: EngineDeps, mutate: Mutate) {
  return {
    /** Applies one step the MCP client decided; answers the status and how many steps the task had before it. */
    async drive(taskId: string, form: ScriptStep, source: RequestSource): Promise<{ status: TaskStatus; stepsBefore: number }> {
      const observation = await deps.store.getObservation(taskId)
      return mutate(taskId, (task, events) => {
        if (task.mode !== 'mcp') throw conflict(`This task is run by ${task.mode === 'script' ? 'its script' : 'Tandem’s own planner'}, not by an MCP client.`, { mode: task.mode })
        if (isTerminal(task.status)) throw conflict(`This task has already finished (${task.status}).`, { status: task.status })
        if (!isDriversTurn(task)) throw conflict(busy(task), { status: task.status })
        const stepsBefore = task.steps.length
        const goal = 'reason' in form ? form.reason : undefined
        applyDecision(task, { decision: decisionOf(form), ...(goal ? { goal } : {}), audit: { source } }, 'mcp', events)
        proposeNext(task, observation, deps.policy, events, deps.uploads)
        return { status: task.status, stepsBefore }
      })
    },

    /** The task's page as last observed (already scrubbed of what the task typed into credential fields). */
    async latestPage(taskId: string) {
      if (!(await deps.store.get(taskId))) throw notFound(`No task ${taskId}.`)
      return deps.store.getObservation(taskId)
    },

    /**
     * Waits up to `waitMs` for the task to need the MCP client again: its turn to decide, the end, or the person
     * being asked (a status that waits for them and that the task was not in at `since`, by default when the wait
     * began).
     */
    async awaitTurn(taskId: string, waitMs: number, signal?: AbortSignal, since?: TaskStatus): Promise<TaskRecord> {
      const deadline = Date.now() + waitMs
      let from = since
      for (;;) {
        const task = await deps.store.get(taskId)
        if (!task) throw notFound(`No task ${taskId}.`)
        from ??= task.status
        const asked = PERSON_WAITS.includes(task.status) && task.status !== from
        if (isTerminal(task.status) || isDriversTurn(task) || asked) return task
        const remaining = deadline - Date.now()
        if (remaining <= 0 || signal?.aborted) return task
        await deps.notifier.wait([taskChannel(taskId)], Math.min(remaining, deps.pollIntervalMs ?? 1000), signal)
      }
    },
  }
}

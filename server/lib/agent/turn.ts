import type { PlannerAudit, Usage, WordParams } from '#protocol'
import type { Completion } from '../llm/gateway'
import type { Decision, PlannerOutput } from '../tasks/planner'
import type { TaskRecord } from '../tasks/task-record'
import { plannerStateOf, type LlmPlannerState } from './planner-state'
import { summariseRun } from './run-summary'

const usageOf = (calls: Completion[]): Partial<Usage> => ({
  llmCalls: calls.length,
  promptTokens: calls.reduce((n, c) => n + c.usage.promptTokens, 0),
  completionTokens: calls.reduce((n, c) => n + c.usage.completionTokens, 0),
  totalTokens: calls.reduce((n, c) => n + c.usage.totalTokens, 0),
  latencyMs: calls.reduce((n, c) => n + c.latencyMs, 0),
})

/** One decision in the making: the task, the planner state it changes, the model calls it made, and its answers. */
export interface Turn {
  task: TaskRecord
  state: LlmPlannerState
  calls: Completion[]
  /** The decision with the state to keep, what the calls cost and the audit. */
  reply(decision: Decision, audit?: PlannerAudit): PlannerOutput
  /** The task fails: why, and what the run did so far. */
  stop(code: string, why: string, audit?: PlannerAudit, details?: WordParams): PlannerOutput
}

export function startTurn(task: TaskRecord, model: string): Turn {
  const state = plannerStateOf(task)
  const calls: Completion[] = []
  const reply = (decision: Decision, audit: PlannerAudit = {}): PlannerOutput => ({
    decision,
    state: { ...state, seqAtDecision: task.seq },
    usage: usageOf(calls),
    audit: {
      model,
      step: state.decisions,
      failures: state.failures,
      calls: calls.map(({ text: _, ...call }) => call),
      ...audit,
    },
  })
  const stop = (code: string, why: string, audit: PlannerAudit = {}, details?: WordParams) =>
    reply({ kind: 'fail', code, message: `${why} ${summariseRun(task, state.history)}`, ...(details ? { details } : {}) }, audit)
  return { task, state, calls, reply, stop }
}

/** Another look at the page before anything else is decided. */
export const observeAgain = (): Decision => ({ kind: 'act', actions: [{ type: 'observe' }] })

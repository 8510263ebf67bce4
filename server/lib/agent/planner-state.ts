import type { AgentOutput, LlmActionForm } from '#protocol'
import type { TaskRecord } from '../tasks/task-record'
import type { ExtractRequest } from './extract'
import type { LoopMemory } from './loop-guard'
import type { HistoryEntry } from './prompt/history'
import { cut } from './prompt/tokens'

/** What the planner keeps with the task between decisions (TaskRecord.plannerState). */
export interface LlmPlannerState {
  history: HistoryEntry[]
  /** History entries dropped to keep the state small. */
  omittedSteps: number
  /** Successful model decisions so far. */
  decisions: number
  /** Consecutive failures: unusable answers, provider errors, failed actions. */
  failures: number
  /** task.seq at the last decision: steps after it are that decision's results. */
  seqAtDecision: number
  /** The types of the last decision's actions while its results are still to come. */
  awaiting?: string[]
  loop: LoopMemory
  pendingExtract?: ExtractRequest
  /** The last extraction that matched a schema: the task's data if the model succeeds without giving its own. */
  extracted?: unknown
}

const MAX_HISTORY = 60

const initialState = (): LlmPlannerState => ({ history: [], omittedSteps: 0, decisions: 0, failures: 0, seqAtDecision: 0, loop: [] })

/** The task's planner state, as a copy this decision may change. */
export const plannerStateOf = (task: TaskRecord): LlmPlannerState => ({
  ...initialState(),
  ...structuredClone((task.plannerState as LlmPlannerState | undefined) ?? {}),
})

/** The model's decision in the history the next prompts show, and what its results are awaited for. */
export function rememberDecision(state: LlmPlannerState, output: AgentOutput, actions: LlmActionForm[]): void {
  state.history.push({
    step: state.decisions,
    evaluation: output.evaluation_previous_goal,
    memory: output.memory,
    nextGoal: output.next_goal,
    actions: actions.map((a) => cut(JSON.stringify(a), 400)),
    results: [],
  })
  if (state.history.length > MAX_HISTORY) {
    state.omittedSteps += state.history.length - MAX_HISTORY
    state.history = state.history.slice(-MAX_HISTORY)
  }
  state.awaiting = actions.map((a) => a.type)
  const extract = actions.find((a) => a.type === 'extract')
  state.pendingExtract = extract ? { instruction: extract.instruction, ...(extract.schema ? { schema: extract.schema } : {}) } : undefined
}

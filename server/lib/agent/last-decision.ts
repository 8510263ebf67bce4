import type { Observation } from '#protocol'
import type { LlmGateway } from '../llm/gateway'
import type { TaskRecord } from '../tasks/task-record'
import { extractWithModel, pageTextOf } from './extract'
import type { LlmPlannerState } from './planner-state'
import { cut } from './prompt/tokens'
import { resultsSince } from './step-results'
import type { Turn } from './turn'

export interface LastDecision {
  /** What the engine last told the planner: a step done, failed or rejected, or an answer. */
  outcome: TaskRecord['lastOutcome']
  /** The step failed because the page changed under it: no failure of the model's. */
  stale: boolean
}

/** What came of the last decision: its steps' results in the history, and the failures in a row counted. */
export function settleLastDecision(task: TaskRecord, state: LlmPlannerState): LastDecision {
  const last = state.history.at(-1)
  if (last && state.awaiting) {
    last.results = resultsSince(task, state.seqAtDecision, state.awaiting)
    state.awaiting = undefined
  }
  const outcome = task.lastOutcome
  const stale = outcome?.kind === 'failed' && outcome.errors.some((e) => e.code === 'TARGET_STALE')
  if (outcome?.kind === 'failed' && !stale) state.failures += 1
  // Only the model's own actions show progress: observes are the planner's, and come after failures too.
  if (outcome?.kind === 'done' && outcome.type !== 'observe') state.failures = 0
  return { outcome, stale }
}

/**
 * The extraction the last decision asked for, once its step ran: the model reads the page text for it, and the
 * history says what it found. An answer from the person in between keeps it for later.
 */
export async function settlePendingExtract(gateway: LlmGateway, turn: Turn, outcome: LastDecision['outcome'], observation: Observation, maxChars: number) {
  const { state, calls } = turn
  if (!state.pendingExtract || !outcome || outcome.kind === 'answered') return
  if (outcome.kind === 'done' && outcome.type === 'extract') {
    const pageText = pageTextOf(outcome.extracted ?? observation.extracted, observation.visibleTextSnippet)
    const result = await extractWithModel(gateway, state.pendingExtract, pageText, calls, maxChars)
    if (result.ok && state.pendingExtract.schema) state.extracted = result.data
    state.history.at(-1)?.results.push(result.ok ? `extracted: ${cut(JSON.stringify(result.data), 4000)}` : `extract: no data (${result.error})`)
  }
  state.pendingExtract = undefined
}

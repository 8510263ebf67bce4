import { countSteps } from '#protocol'
import type { LlmGateway } from '../llm/gateway'
import type { PlannerOutput } from '../tasks/planner'
import type { LastDecision } from './last-decision'
import { proposePlan } from './propose-plan'
import { cut } from './prompt/tokens'
import type { Turn } from './turn'

/** The task ends before the model is asked again (too many failures, the step limit), or proposes its plan first. */
export async function stopOrPlanFirst(
  turn: Turn,
  { outcome }: LastDecision,
  limits: { maxFailures: number; maxSteps: number },
  gateway: LlmGateway,
  pageUrl: string | undefined,
): Promise<PlannerOutput | undefined> {
  const { task, state, calls, reply, stop } = turn
  const { maxFailures, maxSteps } = limits
  if (state.failures >= maxFailures) {
    const code = outcome?.kind === 'failed' ? (outcome.errors[0]?.code ?? 'ACTION_FAILED') : 'ACTION_FAILED'
    // The reader names the step it ended on by the number beside it in the timeline.
    return stop(code, `${maxFailures} failures in a row.`, {}, outcome?.kind === 'failed' ? { step: countSteps(task.steps) } : undefined)
  }
  if (state.decisions >= maxSteps) return stop('MAX_STEPS', `Stopped after ${maxSteps} steps without reaching the goal.`)
  // A plan-first task proposes its plan before any step; nothing runs until the person approves it.
  if (task.planFirst && !task.plan) {
    const proposal = await proposePlan(gateway, task, pageUrl, calls)
    if (proposal.ok) return reply({ kind: 'plan', plan: proposal.plan }, { reason: 'plan first' })
    return stop('LLM_BAD_OUTPUT', `The model proposed no usable plan (${cut(proposal.error, 500)}).`, { error: proposal.error, ...(proposal.raw ? { rawOutput: proposal.raw } : {}) })
  }
  return undefined
}

/** Why the page is read again before the model plans, if it is: what the model would plan from is not the page now. */
export function lookAgainWhy({ outcome, stale }: LastDecision): string | undefined {
  if (stale) return 'the page changed under the last action'
  // The page was read while it was sending what the person refused (a form post half way to its next page); the
  // refused send takes the tab back, and the model plans from the page it is on again.
  if (outcome?.kind === 'rejected' && outcome.type === 'release') return 'the person refused what the page tried to send'
  return undefined
}

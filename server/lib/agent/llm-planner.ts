import type { ActionForm, LlmActionForm, RedactSettings } from '#protocol'
import { upToBatchEnd } from '#protocol'
import type { LlmGateway } from '../llm/gateway'
import { redactingGateway } from '../privacy/redacting-gateway'
import type { Planner, PlannerOutput } from '../tasks/planner'
import type { TaskRecord } from '../tasks/task-record'
import { askModel } from './ask-model'
import { lookAgainWhy, stopOrPlanFirst } from './early-decisions'
import { settleLastDecision, settlePendingExtract } from './last-decision'
import { DEFAULT_LOOP_LIMITS, recordDecision, type LoopLimits } from './loop-guard'
import { rememberDecision } from './planner-state'
import { buildPrompt } from './prompt/build-prompt'
import { promptNotes } from './prompt-notes'
import { cut } from './prompt/tokens'
import { relevantSkills, type SkillsDependency } from './relevant-skills'
import { observeAgain, startTurn } from './turn'

export type { LlmPlannerState } from './planner-state'

export interface LlmPlannerOptions {
  gateway: LlmGateway
  skills?: SkillsDependency
  /** Names the model may use as {{secret:NAME}}; values are scrubbed from everything sent to the model. */
  secrets?: { names(): string[]; redact?(text: string): string }
  /** Emails and phone numbers masked in every prompt as well (card numbers always are). */
  redact?: RedactSettings
  /** Model decisions per task before it fails (default 40). */
  maxSteps?: number
  /** Estimated prompt size the prompt is compacted to (default 12k). */
  maxPromptTokens?: number
  /** Bad answers, provider errors or failed actions in a row before the task fails (default 3). */
  maxFailures?: number
  loopLimits?: LoopLimits
  /** The current page as a data: URL, when vision is on. */
  screenshot?: (task: TaskRecord) => Promise<string | undefined>
}

type Planned = Exclude<LlmActionForm, { type: 'done' } | { type: 'ask_user' }>

/**
 * Decides each step with a model over any OpenAI-compatible endpoint: observe → think → act, with the history
 * compacted into the prompt, bad answers repaired once, and failures, loops and the step limit ending the task.
 */
export function createLlmPlanner(options: LlmPlannerOptions): Planner {
  const maxSteps = options.maxSteps ?? 40
  const maxFailures = options.maxFailures ?? 3
  const maxPromptTokens = options.maxPromptTokens ?? 12_000
  const loopLimits = options.loopLimits ?? DEFAULT_LOOP_LIMITS
  const gateway = redactingGateway(options.gateway, options.secrets?.redact?.bind(options.secrets), options.redact)

  return {
    kind: 'llm',
    async decide({ task, observation }): Promise<PlannerOutput> {
      const turn = startTurn(task, gateway.model)
      const { state, calls, reply, stop } = turn

      const last = settleLastDecision(task, state)
      const early = await stopOrPlanFirst(turn, last, { maxFailures, maxSteps }, gateway, observation?.url)
      if (early) return early
      if (!observation) return reply(observeAgain(), { reason: 'no page observed yet' })
      const lookAgain = lookAgainWhy(last)
      if (lookAgain) return reply(observeAgain(), { reason: lookAgain })
      await settlePendingExtract(gateway, turn, last.outcome, observation, maxPromptTokens * 2)

      const prompt = buildPrompt({
        goal: task.goal,
        history: state.history,
        omittedSteps: state.omittedSteps,
        observation,
        skills: await relevantSkills(options.skills, task, observation),
        secretNames: options.secrets?.names() ?? [],
        notes: promptNotes(last.outcome, state, observation, loopLimits, maxFailures),
        step: { current: state.decisions + 1, max: maxSteps },
        screenshot: await options.screenshot?.(task).catch(() => undefined),
        maxTokens: maxPromptTokens,
        ...(task.plan?.approved ? { plan: task.plan.approved } : {}),
      })
      const promptAudit = { promptTokensEstimate: prompt.tokens, treeTokensEstimate: prompt.treeTokens, compaction: prompt.level }

      const attempt = await askModel(gateway, prompt.messages, calls)
      if (!attempt.ok) {
        state.failures += 1
        const audit = { ...promptAudit, error: attempt.error, ...(attempt.raw ? { rawOutput: attempt.raw } : {}) }
        if (state.failures >= maxFailures) return stop(attempt.code, `${maxFailures} failures in a row (last: ${cut(attempt.error, 500)}).`, audit)
        // Try again on a fresh look at the page: it may have changed, and the round trip spaces the retries.
        return reply(observeAgain(), audit)
      }
      const output = attempt.output
      const actions = upToBatchEnd(output.actions)
      const audit = { ...promptAudit, output: { ...output, actions }, repaired: attempt.repaired }
      state.decisions += 1
      const loop = recordDecision(state.loop, actions as ActionForm[], observation, loopLimits)
      state.loop = loop.memory
      if (loop.verdict === 'break') {
        return stop('LOOP_DETECTED', `The same actions were chosen ${loop.occurrences} times on an unchanged page.`, audit)
      }
      rememberDecision(state, output, actions)

      const [first] = actions
      if (first.type === 'done') {
        const data = first.data ?? (first.success ? state.extracted : undefined)
        return reply({ kind: 'done', success: first.success, text: first.text, ...(data === undefined ? {} : { data }) }, audit)
      }
      if (first.type === 'ask_user') return reply({ kind: 'ask', question: first.question }, audit)
      const goal = output.next_goal?.trim()
      return { ...reply({ kind: 'act', actions: actions as Planned[] }, audit), ...(goal ? { goal: goal.slice(0, 2000) } : {}) }
    },
  }
}

import type { ActionForm, LlmActionForm, PlannerAudit, RedactSettings, Usage, WordParams } from '#protocol'
import { countSteps, upToBatchEnd } from '#protocol'
import type { Completion, LlmGateway } from '../llm/gateway'
import { redactingGateway } from '../privacy/redacting-gateway'
import type { Decision, Planner, PlannerOutput } from '../tasks/planner'
import type { TaskRecord } from '../tasks/task-record'
import { askModel } from './ask-model'
import { proposePlan } from './propose-plan'
import { extractWithModel, pageTextOf, type ExtractRequest } from './extract'
import { noEffectNote } from './no-effect'
import { DEFAULT_LOOP_LIMITS, recordDecision, repeatsOnPage, type LoopLimits, type LoopMemory } from './loop-guard'
import { buildPrompt } from './prompt/build-prompt'
import type { HistoryEntry } from './prompt/history'
import { cut } from './prompt/tokens'
import { relevantSkills, type SkillsDependency } from './relevant-skills'
import { summariseRun } from './run-summary'
import { resultsSince } from './step-results'

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

const usageOf = (calls: Completion[]): Partial<Usage> => ({
  llmCalls: calls.length,
  promptTokens: calls.reduce((n, c) => n + c.usage.promptTokens, 0),
  completionTokens: calls.reduce((n, c) => n + c.usage.completionTokens, 0),
  totalTokens: calls.reduce((n, c) => n + c.usage.totalTokens, 0),
  latencyMs: calls.reduce((n, c) => n + c.latencyMs, 0),
})

type Planned = Exclude<LlmActionForm, { type: 'done' } | { type: 'ask_user' }>

/**
 * Decides each step with a model over any OpenAI-compatible endpoint: observe → think → act, with the history
 * compacted into the prompt, bad answers repaired once, and failures, loops and the step limit ending the task.
 */
export function createLlmPlanner(options: LlmPlannerOptions): Planner {
  const maxSteps = options.maxSteps ?? 40
  const maxFailures = options.maxFailures ?? 3
  const loopLimits = options.loopLimits ?? DEFAULT_LOOP_LIMITS
  const gateway = redactingGateway(options.gateway, options.secrets?.redact?.bind(options.secrets), options.redact)

  return {
    kind: 'llm',
    async decide({ task, observation }): Promise<PlannerOutput> {
      const state: LlmPlannerState = { ...initialState(), ...structuredClone((task.plannerState as LlmPlannerState | undefined) ?? {}) }
      const calls: Completion[] = []
      const reply = (decision: Decision, audit: PlannerAudit = {}): PlannerOutput => ({
        decision,
        state: { ...state, seqAtDecision: task.seq },
        usage: usageOf(calls),
        audit: {
          model: gateway.model,
          step: state.decisions,
          failures: state.failures,
          calls: calls.map(({ text: _, ...call }) => call),
          ...audit,
        },
      })
      const stop = (code: string, why: string, audit: PlannerAudit = {}, details?: WordParams) =>
        reply({ kind: 'fail', code, message: `${why} ${summariseRun(task, state.history)}`, ...(details ? { details } : {}) }, audit)

      // What came of the last decision.
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
      if (state.failures >= maxFailures) {
        const code = outcome?.kind === 'failed' ? (outcome.errors[0]?.code ?? 'ACTION_FAILED') : 'ACTION_FAILED'
        // The reader names the step it ended on by the number beside it in the timeline.
        return stop(code, `${maxFailures} failures in a row.`, {}, outcome?.kind === 'failed' ? { step: countSteps(task.steps) } : undefined)
      }
      if (state.decisions >= maxSteps) return stop('MAX_STEPS', `Stopped after ${maxSteps} steps without reaching the goal.`)
      // A plan-first task proposes its plan before any step; nothing runs until the person approves it.
      if (task.planFirst && !task.plan) {
        const proposal = await proposePlan(gateway, task, observation?.url, calls)
        if (proposal.ok) return reply({ kind: 'plan', plan: proposal.plan }, { reason: 'plan first' })
        return stop('LLM_BAD_OUTPUT', `The model proposed no usable plan (${cut(proposal.error, 500)}).`, { error: proposal.error, ...(proposal.raw ? { rawOutput: proposal.raw } : {}) })
      }
      if (!observation) return reply({ kind: 'act', actions: [{ type: 'observe' }] }, { reason: 'no page observed yet' })
      if (stale) return reply({ kind: 'act', actions: [{ type: 'observe' }] }, { reason: 'the page changed under the last action' })
      // The page was read while it was sending what the person refused (a form post half way to its next page); the
      // refused send takes the tab back, and the model plans from the page it is on again.
      if (outcome?.kind === 'rejected' && outcome.type === 'release') {
        return reply({ kind: 'act', actions: [{ type: 'observe' }] }, { reason: 'the person refused what the page tried to send' })
      }

      if (state.pendingExtract && outcome && outcome.kind !== 'answered') {
        if (outcome.kind === 'done' && outcome.type === 'extract') {
          const pageText = pageTextOf(outcome.extracted ?? observation.extracted, observation.visibleTextSnippet)
          const maxChars = (options.maxPromptTokens ?? 12_000) * 2
          const result = await extractWithModel(gateway, state.pendingExtract, pageText, calls, maxChars)
          if (result.ok && state.pendingExtract.schema) state.extracted = result.data
          last?.results.push(result.ok ? `extracted: ${cut(JSON.stringify(result.data), 4000)}` : `extract: no data (${result.error})`)
        }
        state.pendingExtract = undefined
      }

      const notes: string[] = []
      // Said first, before any loop warning: the model learns the step did nothing on the very next prompt.
      const nothing = noEffectNote(outcome)
      if (nothing) notes.push(nothing)
      const repeats = repeatsOnPage(state.loop, observation)
      if (repeats >= loopLimits.warnAt) {
        notes.push(`You have chosen the same actions ${repeats} times on this unchanged page. They are not working: do something different, or ask_user.`)
      }
      if (state.failures > 0) notes.push(`${state.failures} failure(s) in a row; the task stops at ${maxFailures}.`)
      const prompt = buildPrompt({
        goal: task.goal,
        history: state.history,
        omittedSteps: state.omittedSteps,
        observation,
        skills: await relevantSkills(options.skills, task, observation),
        secretNames: options.secrets?.names() ?? [],
        notes,
        step: { current: state.decisions + 1, max: maxSteps },
        screenshot: await options.screenshot?.(task).catch(() => undefined),
        maxTokens: options.maxPromptTokens ?? 12_000,
        ...(task.plan?.approved ? { plan: task.plan.approved } : {}),
      })
      const promptAudit = { promptTokensEstimate: prompt.tokens, treeTokensEstimate: prompt.treeTokens, compaction: prompt.level }

      const attempt = await askModel(gateway, prompt.messages, calls)
      if (!attempt.ok) {
        state.failures += 1
        const audit = { ...promptAudit, error: attempt.error, ...(attempt.raw ? { rawOutput: attempt.raw } : {}) }
        if (state.failures >= maxFailures) return stop(attempt.code, `${maxFailures} failures in a row (last: ${cut(attempt.error, 500)}).`, audit)
        // Try again on a fresh look at the page: it may have changed, and the round trip spaces the retries.
        return reply({ kind: 'act', actions: [{ type: 'observe' }] }, audit)
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

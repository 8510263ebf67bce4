import { z } from 'zod'
import { AgentOutput, type ActionForm, type LlmActionForm, type Observation, type Usage } from '#protocol'
import type { ChatMessage, Completion, LlmGateway } from '../llm/gateway'
import type { TaskRecord } from '../tasks/task-record'
import { extractWithModel } from './extract'
import { parseAgentOutput } from './parse-output'
import type { Decision, Planner, PlannerOutput } from './planner'
import { buildPrompt, type HistoryEntry } from './prompt/build-prompt'
import { cut } from './prompt/tokens'

export interface SkillSource {
  search(q: string, options: { site?: string; limit?: number }): { slug: string }[]
  get(slug: string): { name: string; description: string; body: string } | undefined
}

export interface LlmPlannerOptions {
  gateway: LlmGateway
  skills?: () => Promise<SkillSource>
  secretNames?: () => string[]
  maxSteps?: number
  maxPromptTokens?: number
  maxFailures?: number
}

interface LlmState {
  history: HistoryEntry[]
  failures: number
  decisions: number
  /** task.seq when the last decision was made: later steps are its results. */
  seqAtDecision: number
  repeats: number
  lastSignature?: string
  lastUrl?: string
  pendingExtract?: { instruction: string; schema?: Record<string, unknown> }
}

const OUTPUT_SCHEMA = (() => {
  try {
    return { name: 'agent_output', schema: z.toJSONSchema(AgentOutput, { unrepresentable: 'any' }) as Record<string, unknown> }
  } catch {
    return undefined
  }
})()

const signature = (a: ActionForm) => JSON.stringify(a)

function resultsSince(task: TaskRecord, seq: number): string[] {
  const results = task.steps
    .filter((s) => s.seq > seq)
    .map((s) =>
      s.outcome === 'done'
        ? `${s.type}: done${s.url ? ` (now at ${cut(s.url, 120)})` : ''}`
        : s.outcome === 'rejected'
          ? `${s.type}: REJECTED by the person${s.note ? `: ${s.note}` : ''}`
          : `${s.type}: FAILED ${s.errors.map((e) => `${e.code} ${cut(e.message, 200)}`).join(', ')}`,
    )
  const last = task.lastOutcome
  if (last?.kind === 'answered') results.push(`the person answered "${cut(last.answer, 500)}" to "${cut(last.question ?? '', 200)}"`)
  return results
}

/** Decides each step with a model over any OpenAI-compatible endpoint (DESIGN: what the LLM sees and answers). */
export function createLlmPlanner(options: LlmPlannerOptions): Planner {
  const maxSteps = options.maxSteps ?? 40
  const maxFailures = options.maxFailures ?? 3

  return {
    kind: 'llm',
    async decide({ task, observation }): Promise<PlannerOutput> {
      const state: LlmState = structuredClone((task.plannerState as LlmState | undefined) ?? { history: [], failures: 0, decisions: 0, seqAtDecision: 0, repeats: 0 })
      const last = state.history.at(-1)
      if (last && !last.results.length) last.results = resultsSince(task, state.seqAtDecision)
      const calls: Completion[] = []
      const done = (decision: Decision, audit: Record<string, unknown> = {}): PlannerOutput => ({
        decision,
        state: { ...state, seqAtDecision: task.seq },
        usage: usageOf(calls),
        audit: { model: options.gateway.model, calls: calls.map(({ text: _, ...c }) => c), ...audit },
      })
      const summary = () =>
        `${task.steps.length} steps ran. ${state.history.slice(-5).map((h) => `${h.actions.join('; ')} → ${h.results.join('; ') || 'no result'}`).join(' | ')}`

      if (state.decisions >= maxSteps) return done({ kind: 'fail', code: 'MAX_STEPS', message: `Stopped after ${maxSteps} planning steps. ${summary()}` })
      if (!observation) return done({ kind: 'act', actions: [{ type: 'observe' }] })
      const lastOutcome = task.lastOutcome
      if (lastOutcome?.kind === 'failed' && lastOutcome.errors.some((e) => e.code === 'TARGET_STALE')) {
        return done({ kind: 'act', actions: [{ type: 'observe' }] }, { reason: 'the page changed under the last action' })
      }
      if (state.pendingExtract && lastOutcome?.kind === 'done' && lastOutcome.type === 'extract') {
        const extracted = await extractWithModel(options.gateway, state.pendingExtract, String(observation.extracted ?? observation.visibleTextSnippet), calls)
        last?.results.push(`extracted: ${cut(JSON.stringify(extracted), 3000)}`)
      }
      state.pendingExtract = undefined

      const notes: string[] = []
      if (state.repeats >= 2) notes.push(`You repeated the same action ${state.repeats + 1} times without the page changing. Do something different, or ask_user.`)
      const skills = await relevantSkills(options.skills, task, observation)
      const prompt = buildPrompt({
        goal: task.goal,
        history: state.history,
        observation,
        skills,
        secretNames: options.secretNames?.() ?? [],
        notes,
        maxTokens: options.maxPromptTokens ?? 12_000,
      })

      const attempt = await askModel(options.gateway, prompt.messages, calls)
      const promptAudit = { promptTokensEstimate: prompt.tokens, treeTokensEstimate: prompt.treeTokens }
      if (!attempt.ok) {
        state.failures += 1
        if (state.failures >= maxFailures) {
          return done({ kind: 'fail', code: attempt.code, message: `${maxFailures} failures in a row (last: ${attempt.error}). ${summary()}` }, { ...promptAudit, error: attempt.error })
        }
        return done({ kind: 'act', actions: [{ type: 'observe' }] }, { ...promptAudit, error: attempt.error })
      }
      const output = attempt.output
      state.failures = 0
      state.decisions += 1
      const sig = output.actions.map(signature).join('|')
      state.repeats = sig === state.lastSignature && observation.url === state.lastUrl ? state.repeats + 1 : 0
      state.lastSignature = sig
      state.lastUrl = observation.url
      if (state.repeats >= 4) {
        return done({ kind: 'fail', code: 'LOOP_DETECTED', message: `The same action was chosen ${state.repeats + 1} times with no progress. ${summary()}` }, { ...promptAudit, output })
      }
      state.history.push({
        step: state.decisions,
        evaluation: output.evaluation_previous_goal,
        memory: output.memory,
        nextGoal: output.next_goal,
        actions: output.actions.map((a) => cut(signature(a), 300)),
        results: [],
      })
      const extract = output.actions.find((a): a is Extract<LlmActionForm, { type: 'extract' }> => a.type === 'extract')
      if (extract) state.pendingExtract = { instruction: extract.instruction, schema: extract.schema }
      const [first] = output.actions
      const decision: Decision =
        first.type === 'done'
          ? { kind: 'done', success: first.success, text: first.text, data: first.data }
          : first.type === 'ask_user'
            ? { kind: 'ask', question: first.question }
            : { kind: 'act', actions: output.actions as ActionForm[] }
      return done(decision, { ...promptAudit, output })
    },
  }
}

type Attempt = { ok: true; output: AgentOutput } | { ok: false; code: string; error: string }

/** One call, and one repair round that shows the model what was wrong with its answer. */
async function askModel(gateway: LlmGateway, messages: ChatMessage[], calls: Completion[]): Promise<Attempt> {
  try {
    const first = await gateway.complete({ messages, schema: OUTPUT_SCHEMA })
    calls.push(first)
    const parsed = parseAgentOutput(first.text)
    if (parsed.ok) return parsed
    const repair = await gateway.complete({
      messages: [
        ...messages,
        { role: 'assistant', content: cut(first.text, 4000) },
        { role: 'user', content: `That answer is not valid: ${parsed.error}\nAnswer again with exactly one JSON object in the required format.` },
      ],
      schema: OUTPUT_SCHEMA,
    })
    calls.push(repair)
    const repaired = parseAgentOutput(repair.text)
    return repaired.ok ? repaired : { ok: false, code: 'LLM_BAD_OUTPUT', error: repaired.error }
  } catch (error) {
    return { ok: false, code: 'LLM_ERROR', error: String((error as Error).message ?? error) }
  }
}

async function relevantSkills(source: LlmPlannerOptions['skills'], task: TaskRecord, observation: Observation) {
  if (!source) return []
  const index = await source()
  let site: string | undefined
  try {
    site = new URL(observation.url).hostname
  } catch {}
  const slugs = new Set<string>(task.skill ? [task.skill] : [])
  for (const hit of index.search(task.goal, { site, limit: 2 })) slugs.add(hit.slug)
  if (slugs.size < 2) for (const hit of index.search(task.goal, { limit: 2 })) slugs.add(hit.slug)
  return [...slugs].slice(0, 3).flatMap((slug) => index.get(slug) ?? [])
}

const usageOf = (calls: Completion[]): Partial<Usage> => ({
  llmCalls: calls.length,
  promptTokens: calls.reduce((n, c) => n + c.usage.promptTokens, 0),
  completionTokens: calls.reduce((n, c) => n + c.usage.completionTokens, 0),
  totalTokens: calls.reduce((n, c) => n + c.usage.totalTokens, 0),
  latencyMs: calls.reduce((n, c) => n + c.latencyMs, 0),
})

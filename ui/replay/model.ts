import type { AuditEvent, ObservationError, Risk, TaskStatus, Usage } from '#protocol'
import { RiskReason } from '#protocol'
import { describeTarget, type ElementLike, type TargetLike } from './target'
import type { Replay, ReplayArtifact, ReplayDecision, ReplayPause, ReplayQuestion, ReplayStep } from './types'

export type * from './types'

type Data = Record<string, unknown>
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
const obj = (v: unknown): Data | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Data) : undefined)
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const RISKS: readonly string[] = ['low', 'medium', 'high']
const STATUSES: readonly string[] = ['RUNNING', 'WAITING_CONFIRMATION', 'WAITING_USER', 'WAITING_PAGE', 'PAUSED', 'SUCCEEDED', 'FAILED', 'CANCELED']

function usageOf(v: unknown): Partial<Usage> | undefined {
  const u = obj(v)
  if (!u) return undefined
  const out: Partial<Usage> = {}
  for (const key of ['llmCalls', 'promptTokens', 'completionTokens', 'totalTokens', 'latencyMs'] as const) {
    const n = num(u[key])
    if (n !== undefined) out[key] = n
  }
  return Object.keys(out).length ? out : undefined
}

function decisionOf(event: AuditEvent): ReplayDecision {
  const d = event.data
  const decision = obj(d.decision)
  const output = obj(d.output)
  const error = str(d.error) ?? (decision?.kind === 'fail' ? str(decision.message) : undefined)
  return {
    at: event.ts,
    planner: str(d.planner),
    model: str(d.model),
    nextGoal: str(output?.next_goal),
    thinking: str(output?.thinking),
    kind: str(decision?.kind),
    usage: usageOf(d.usage),
    ...(error ? { error } : {}),
  }
}

/** What an action carries besides its target, as a person would say it. */
function detailOf(type: string, params: Data): string | undefined {
  const sensitive = params.sensitive === true
  switch (type) {
    case 'navigate':
      return str(params.url)
    case 'type': {
      const text = typeof params.text === 'string' ? params.text : undefined
      if (text === undefined) return undefined
      return sensitive ? '••••••' : JSON.stringify(text) + (params.submit === true ? ' ⏎' : '')
    }
    case 'select':
      return str(params.option)
    case 'press':
      return str(params.keys)
    case 'scroll':
      return str(params.direction)
    case 'waitFor':
      return str(params.text) ?? (str(params.urlIncludes) ? `URL ∋ ${params.urlIncludes}` : str(params.selector))
    case 'extract':
      return str(params.instruction)
    default:
      return undefined
  }
}

const reasonsOf = (v: unknown): string[] => arr(v).filter((r): r is string => typeof r === 'string')

/**
 * The reasons as data, only when every one of them is understood and they match the sentences one for one:
 * otherwise the English sentences are the better record to show.
 */
function reasonDetailsOf(v: unknown, reasons: readonly string[]): { reasonDetails: RiskReason[] } | undefined {
  const details = arr(v).map((d) => RiskReason.safeParse(d))
  if (!details.length || details.length !== reasons.length || !details.every((d) => d.success)) return undefined
  return { reasonDetails: details.map((d) => d.data!) }
}

function artifactsOf(v: unknown): ReplayArtifact[] {
  const out: ReplayArtifact[] = []
  for (const item of arr(v)) {
    const a = obj(item)
    const name = str(a?.name)
    if (name) out.push({ name, label: str(a?.label) ?? 'screenshot' })
  }
  return out
}

function errorsOf(v: unknown): ObservationError[] {
  const out: ObservationError[] = []
  for (const item of arr(v)) {
    const e = obj(item)
    if (e && typeof e.code === 'string') out.push({ code: e.code, message: str(e.message) ?? '' } as ObservationError)
  }
  return out
}

const emptyUsage = (): Usage => ({ llmCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, latencyMs: 0 })

/**
 * Turns a task's audit events into what a person reviews: the steps with their goal, target, risk,
 * confirmation, result and screenshots, the planner's decisions and what they cost, questions and pauses.
 * Pure and forgiving: events it does not know are counted, fields it does not expect are ignored, so an
 * old or newer audit still replays.
 */
export function buildReplay(events: readonly AuditEvent[]): Replay {
  const replay: Replay = {
    taskId: events[0]?.taskId ?? '',
    goal: '',
    steps: [],
    timeline: [],
    questions: [],
    pauses: [],
    totals: { steps: 0, done: 0, failed: 0, rejected: 0, confirmations: 0, approved: 0, screenshots: 0, errors: 0, usage: emptyUsage(), durationMs: 0 },
    unknown: {},
  }
  const byAction = new Map<string, ReplayStep>()
  let decision: ReplayDecision | undefined
  let openPause: ReplayPause | undefined
  let openQuestion: ReplayQuestion | undefined
  const usage = replay.totals.usage

  for (const event of events) {
    const d = event.data ?? {}
    const step = event.actionId ? byAction.get(event.actionId) : undefined
    switch (event.type) {
      case 'task.created':
        replay.goal = str(d.goal) ?? replay.goal
        replay.mode = str(d.mode)
        replay.startUrl = str(d.startUrl)
        replay.skill = str(d.skill)
        replay.clientId = str(d.clientId) ?? str(obj(d.source)?.clientId)
        replay.createdAt = event.ts
        break
      case 'task.bound':
        replay.clientId = str(d.clientId) ?? replay.clientId
        break
      case 'task.status': {
        const to = str(d.to)
        if (to && STATUSES.includes(to)) replay.status = to as TaskStatus
        break
      }
      case 'planner.decision': {
        decision = decisionOf(event)
        replay.timeline.push({ kind: 'decision', decision })
        for (const [key, value] of Object.entries(decision.usage ?? {})) usage[key as keyof Usage] += value ?? 0
        break
      }
      case 'action.proposed': {
        const action = obj(d.action) ?? {}
        const type = str(action.type) ?? 'unknown'
        const params = obj(action.params) ?? {}
        const risk = str(d.risk) ?? str(action.risk) ?? 'low'
        const reasons = reasonsOf(d.reasons)
        const created: ReplayStep = {
          actionId: event.actionId ?? str(action.actionId) ?? `#${event.seq}`,
          seq: num(action.seq) ?? replay.steps.length + 1,
          type,
          target: describeTarget(obj(action.target) as TargetLike | undefined, obj(d.element) as ElementLike | undefined),
          detail: detailOf(type, params),
          goal: str(action.reason) ?? decision?.nextGoal,
          risk: (RISKS.includes(risk) ? risk : 'low') as Risk,
          reasons,
          ...reasonDetailsOf(d.reasonDetails, reasons),
          proposedAt: event.ts,
          outcome: 'pending',
          screenshots: [],
          ...(decision ? { decision } : {}),
        }
        byAction.set(created.actionId, created)
        replay.steps.push(created)
        replay.timeline.push({ kind: 'step', step: created })
        break
      }
      case 'confirmation.requested':
        if (step) {
          const reasons = reasonsOf(d.reasons)
          step.confirmation = reasons.length
            ? { requestedAt: event.ts, reasons, ...reasonDetailsOf(d.reasonDetails, reasons) }
            : { requestedAt: event.ts, reasons: step.reasons, ...(step.reasonDetails ? { reasonDetails: step.reasonDetails } : {}) }
        }
        break
      case 'confirmation.answered':
        if (step) {
          const approved = d.approved === true
          step.confirmation ??= { reasons: step.reasons, ...(step.reasonDetails ? { reasonDetails: step.reasonDetails } : {}) }
          step.confirmation.answer = {
            approved,
            by: str(d.by) ?? str(obj(d.source)?.clientId),
            at: str(d.at) ?? event.ts,
            ...(str(d.reason) ? { reason: str(d.reason) } : {}),
          }
          if (!approved) {
            step.outcome = 'rejected'
            step.finishedAt = event.ts
          }
        }
        break
      case 'action.dispatched':
        if (step) step.dispatchedAt ??= event.ts
        break
      case 'observation':
        if (step) {
          const status = d.status === 'failed' ? 'failed' : 'done'
          step.observation = { status, url: str(d.url), title: str(d.title), errors: errorsOf(d.errors), ...(d.extracted === undefined ? {} : { extracted: d.extracted }) }
          step.outcome = status
          step.finishedAt = event.ts
          for (const artifact of artifactsOf(d.artifacts)) {
            if (artifact.label === 'before' && !step.before) step.before = artifact
            else if (artifact.label === 'after' && !step.after) step.after = artifact
            else step.screenshots.push(artifact)
          }
        }
        break
      case 'user.asked':
        openQuestion = { question: str(d.question) ?? '', askedAt: event.ts, ...(str(d.reason) ? { reason: str(d.reason) } : {}) }
        replay.questions.push(openQuestion)
        replay.timeline.push({ kind: 'question', question: openQuestion })
        break
      case 'user.answered': {
        const asked = str(d.question)
        const question = openQuestion && (!asked || openQuestion.question === asked) ? openQuestion : undefined
        if (question) {
          question.answer = str(d.answer) ?? ''
          question.answeredAt = event.ts
        } else {
          const answered: ReplayQuestion = { question: asked ?? '', askedAt: event.ts, answer: str(d.answer) ?? '', answeredAt: event.ts }
          replay.questions.push(answered)
          replay.timeline.push({ kind: 'question', question: answered })
        }
        openQuestion = undefined
        break
      }
      case 'task.paused':
        openPause = { at: event.ts, from: str(d.from), reason: str(d.reason) }
        replay.pauses.push(openPause)
        replay.timeline.push({ kind: 'pause', pause: openPause })
        break
      case 'task.resumed':
        if (openPause) {
          openPause.resumedAt = event.ts
          openPause.resumeReason = str(d.reason)
        }
        openPause = undefined
        break
      case 'task.canceled':
        replay.timeline.push({ kind: 'canceled', at: event.ts, reason: str(d.reason) })
        break
      case 'queue.dropped':
        replay.timeline.push({ kind: 'dropped', at: event.ts, reason: str(d.reason), count: arr(d.dropped).length })
        break
      case 'task.finished': {
        const status = str(d.status)
        if (status && STATUSES.includes(status)) replay.status = status as TaskStatus
        const result = obj(d.result)
        if (result) replay.result = { success: result.success === true, text: str(result.text) ?? '', ...(result.data === undefined ? {} : { data: result.data }) }
        const error = obj(d.error)
        if (error) replay.error = { code: str(error.code) ?? 'ERROR', message: str(error.message) ?? '' }
        replay.finishedAt = event.ts
        break
      }
      case 'report.received':
        break
      default:
        replay.unknown[event.type] = (replay.unknown[event.type] ?? 0) + 1
    }
  }

  const t = replay.totals
  for (const step of replay.steps) {
    t.steps++
    if (step.outcome === 'done') t.done++
    else if (step.outcome === 'failed') t.failed++
    else if (step.outcome === 'rejected') t.rejected++
    if (step.confirmation) t.confirmations++
    if (step.confirmation?.answer?.approved) t.approved++
    t.screenshots += (step.before ? 1 : 0) + (step.after ? 1 : 0) + step.screenshots.length
    t.errors += step.observation?.errors.length ?? 0
  }
  if (events.length) t.durationMs = Math.max(0, Date.parse(events[events.length - 1].ts) - Date.parse(events[0].ts)) || 0
  return replay
}

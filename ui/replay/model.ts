import type { AuditEvent, KnownAuditEvent, ObservationError, RiskReason, Usage } from '#protocol'
import { parseAuditEvent } from '#protocol'
import { summarise } from './summary'
import { describeTarget } from './target'
import type { Replay, ReplayArtifact, ReplayDecision, ReplayPause, ReplayQuestion, ReplayStep, ReplayWrite } from './types'

export type * from './types'

type Data = Record<string, unknown>
type Event<T extends KnownAuditEvent['type']> = Extract<KnownAuditEvent, { type: T }>
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)

function decisionOf(event: Event<'planner.decision'>): ReplayDecision {
  const d = event.data
  const decision = d.decision
  const error = str(d.error) ?? (decision.kind === 'fail' ? str(decision.message) : undefined)
  const usage = d.usage && Object.keys(d.usage).length ? d.usage : undefined
  return {
    at: event.ts,
    planner: str(d.planner),
    model: str(d.model),
    nextGoal: str(d.output?.next_goal),
    thinking: str(d.output?.thinking),
    kind: decision.kind,
    usage,
    ...(error ? { error } : {}),
    ...(decision.kind === 'fail' ? { code: decision.code, ...(decision.details ? { details: decision.details } : {}) } : {}),
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
    case 'drag':
      return params.to === undefined ? undefined : `→ [${String(params.to)}]`
    case 'waitFor':
      return str(params.text) ?? (str(params.urlIncludes) ? `URL ∋ ${params.urlIncludes}` : str(params.selector))
    case 'extract':
      return str(params.instruction)
    default:
      return undefined
  }
}

/**
 * The reasons as data, only when they match the sentences one for one: otherwise the English sentences are the
 * better record to show.
 */
function reasonDetailsOf(details: RiskReason[] | undefined, reasons: readonly string[]): { reasonDetails: RiskReason[] } | undefined {
  if (!details?.length || details.length !== reasons.length) return undefined
  return { reasonDetails: details }
}

const artifactsOf = (refs: { name: string; label: string }[]): ReplayArtifact[] => refs.map(({ name, label }) => ({ name, label }))
// What a reader words an error by stays with it: a navigation failure's details, a refused site's origin.
const errorsOf = (errors: ObservationError[]): ObservationError[] =>
  errors.map(({ code, message, details, origin }) => ({ code, message, ...(details ? { details } : {}), ...(origin ? { origin } : {}) }))

function writeOf(event: Event<'write.held' | 'write.released' | 'write.refused' | 'write.dropped' | 'write.allowed' | 'write.harmless'>, clientId?: string): ReplayWrite {
  const by = 'by' in event.data ? event.data.by : undefined
  const base = {
    at: event.ts,
    request: event.data.request,
    ...(event.actionId ? { actionId: event.actionId } : {}),
    ...(by && by === clientId ? { byPanel: true } : {}),
  }
  switch (event.type) {
    case 'write.held': {
      const actionId = event.data.stepActionId ?? event.actionId
      return { ...base, outcome: 'held', reason: event.data.reason, ...(actionId ? { actionId } : {}) }
    }
    case 'write.released':
      return { ...base, outcome: 'released', by: event.data.by, at: event.data.at || event.ts }
    case 'write.refused':
      return { ...base, outcome: 'refused', reason: event.data.why, ...(event.data.by ? { by: event.data.by } : {}) }
    case 'write.dropped':
      return { ...base, outcome: 'dropped', reason: event.data.reason }
    case 'write.allowed':
      return { ...base, outcome: 'allowed', ...(event.data.rule ? { rule: event.data.rule } : {}), ...(event.data.scope ? { scope: event.data.scope } : {}) }
    case 'write.harmless':
      return { ...base, outcome: 'harmless', kind: event.data.kind }
  }
}

const emptyUsage = (): Usage => ({ llmCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, latencyMs: 0 })

/**
 * Turns a task's audit events into what a person reviews: the steps with their goal, target, risk,
 * confirmation, result and screenshots, the planner's decisions and what they cost, questions and pauses.
 * Pure and forgiving: each event is read through its schema (parseAuditEvent); one of a type it does not know,
 * or whose data is not as its type says, is kept in the timeline as such and counted, so an old or newer audit
 * still replays.
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
    malformed: {},
  }
  const byAction = new Map<string, ReplayStep>()
  // Steps whose target is only a CSS selector: the page names the element once the step has run.
  const unnamed = new Set<string>()
  let decision: ReplayDecision | undefined
  let openPause: ReplayPause | undefined
  let openQuestion: ReplayQuestion | undefined
  const usage = replay.totals.usage

  for (const raw of events) {
    const event = parseAuditEvent(raw)
    if (event.type === 'unknown') {
      const { type, seq, ts } = event.event
      const count = event.problem ? replay.malformed : replay.unknown
      count[type] = (count[type] ?? 0) + 1
      replay.timeline.push({ kind: 'unknown', event: { at: ts, seq, type, ...(event.problem ? { problem: event.problem } : {}) } })
      continue
    }
    const step = event.actionId ? byAction.get(event.actionId) : undefined
    switch (event.type) {
      case 'task.created': {
        const d = event.data
        replay.goal = d.goal
        replay.mode = d.mode
        replay.startUrl = str(d.startUrl)
        replay.skill = str(d.skill)
        replay.clientId = str(d.clientId) ?? str(d.source.clientId)
        replay.createdAt = event.ts
        break
      }
      case 'task.bound':
        replay.clientId = str(event.data.clientId) ?? replay.clientId
        break
      case 'task.status':
        replay.status = event.data.to
        break
      case 'planner.decision': {
        decision = decisionOf(event)
        replay.timeline.push({ kind: 'decision', decision })
        for (const [key, value] of Object.entries(decision.usage ?? {})) usage[key as keyof Usage] += value ?? 0
        break
      }
      case 'action.proposed': {
        const { action, risk, reasons } = event.data
        const created: ReplayStep = {
          actionId: event.actionId,
          seq: action.seq,
          type: action.type,
          target: describeTarget(action.target, event.data.element),
          detail: detailOf(action.type, action.params),
          goal: str(action.reason) ?? decision?.nextGoal,
          risk,
          reasons,
          ...reasonDetailsOf(event.data.reasonDetails, reasons),
          proposedAt: event.ts,
          outcome: 'pending',
          screenshots: [],
          ...(decision ? { decision } : {}),
        }
        byAction.set(created.actionId, created)
        if (action.target?.by === 'selector' && !event.data.element) unnamed.add(created.actionId)
        replay.steps.push(created)
        replay.timeline.push({ kind: 'step', step: created })
        break
      }
      case 'confirmation.requested':
        if (step) {
          const { reasons, reasonDetails } = event.data
          step.confirmation = reasons.length
            ? { requestedAt: event.ts, reasons, ...reasonDetailsOf(reasonDetails, reasons) }
            : { requestedAt: event.ts, reasons: step.reasons, ...(step.reasonDetails ? { reasonDetails: step.reasonDetails } : {}) }
        }
        break
      case 'confirmation.answered':
        if (step) {
          const d = event.data
          step.confirmation ??= { reasons: step.reasons, ...(step.reasonDetails ? { reasonDetails: step.reasonDetails } : {}) }
          const by = str(d.by) ?? str(d.source.clientId)
          step.confirmation.answer = {
            approved: d.approved,
            by,
            at: str(d.at) ?? event.ts,
            // The extension names its version on every call; the task's own browser answering is its side panel.
            ...(by && by === replay.clientId && str(d.source.version) ? { inPanel: true } : {}),
            ...(str(d.reason) ? { reason: str(d.reason) } : {}),
            ...(d.source.principal ? { principal: d.source.principal } : {}),
            // An audit written before task rules made only site rules.
            ...(d.approved && d.allowWrites?.length ? { allowed: { scope: d.scope ?? (d.forTask ? 'task' : 'site'), rules: d.allowWrites } } : {}),
          }
          if (!d.approved) {
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
          const d = event.data
          step.observation = { status: d.status, url: str(d.url), title: str(d.title), errors: errorsOf(d.errors), ...(d.extracted === undefined ? {} : { extracted: d.extracted }) }
          step.outcome = d.status
          step.finishedAt = event.ts
          if (d.targetName && unnamed.has(step.actionId)) step.target = `“${d.targetName}”`
          for (const artifact of artifactsOf(d.artifacts)) {
            if (artifact.label === 'before' && !step.before) step.before = artifact
            else if (artifact.label === 'after' && !step.after) step.after = artifact
            else step.screenshots.push(artifact)
          }
        }
        break
      case 'user.asked':
        openQuestion = { question: event.data.question, askedAt: event.ts, ...(str(event.data.reason) ? { reason: event.data.reason } : {}) }
        replay.questions.push(openQuestion)
        replay.timeline.push({ kind: 'question', question: openQuestion })
        break
      case 'user.answered': {
        const asked = str(event.data.question)
        const question = openQuestion && (!asked || openQuestion.question === asked) ? openQuestion : undefined
        if (question) {
          question.answer = event.data.answer
          question.answeredAt = event.ts
        } else {
          const answered: ReplayQuestion = { question: asked ?? '', askedAt: event.ts, answer: event.data.answer, answeredAt: event.ts }
          replay.questions.push(answered)
          replay.timeline.push({ kind: 'question', question: answered })
        }
        openQuestion = undefined
        break
      }
      case 'task.paused':
        openPause = { at: event.ts, from: event.data.from, reason: str(event.data.reason) }
        replay.pauses.push(openPause)
        replay.timeline.push({ kind: 'pause', pause: openPause })
        break
      case 'task.resumed':
        if (openPause) {
          openPause.resumedAt = event.ts
          openPause.resumeReason = str(event.data.reason)
        }
        openPause = undefined
        break
      case 'task.canceled': {
        const by = event.data.source.principal
        replay.timeline.push({ kind: 'canceled', at: event.ts, reason: str(event.data.reason), ...(by ? { by } : {}) })
        if (by) replay.canceledBy = by
        break
      }
      case 'queue.dropped':
        replay.timeline.push({ kind: 'dropped', at: event.ts, reason: str(event.data.reason), count: event.data.dropped.length })
        break
      case 'task.finished': {
        const { status, result, error } = event.data
        replay.status = status
        if (result) {
          replay.result = {
            success: result.success,
            text: result.text,
            ...(result.data === undefined ? {} : { data: result.data }),
            ...(result.code ? { code: result.code } : {}),
            ...(result.params ? { params: result.params } : {}),
          }
        }
        if (error) replay.error = { code: str(error.code) ?? 'ERROR', message: error.message, ...(error.details ? { details: error.details } : {}) }
        replay.finishedAt = event.ts
        break
      }
      case 'write.held':
      case 'write.released':
      case 'write.refused':
      case 'write.dropped':
      case 'write.allowed':
      case 'write.harmless':
        replay.timeline.push({ kind: 'write', write: writeOf(event, replay.clientId) })
        break
      case 'report.received':
      case 'audit.recovered':
        break
      default:
        // A type this version knows but this page does not show yet: never silently.
        replay.unknown[(event as { type: string }).type] = (replay.unknown[(event as { type: string }).type] ?? 0) + 1
    }
  }

  summarise(replay, events)
  return replay
}

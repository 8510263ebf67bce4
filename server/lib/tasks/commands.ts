import type { AnswerBody, ConfirmBody, TaskCommandBody, TaskExchange } from '#protocol'
import { isTerminal, principalWords } from '#protocol'
import { conflict } from '../http/errors'
import { finish } from './finish'
import type { RequestSource } from '../http/source'
import type { Mutate } from './core'
import type { EngineDeps } from './deps'
import { setStatus, type PendingEvent } from './events'
import type { TaskRecord } from './task-record'
import { advance } from './advance'
import { refuseRelease } from './release'
import { typedOf } from './step-details'
import { refuseSite } from './site-refusal'
import { widenPlan } from './plan-check'
import { noteAnswer } from './last-answer'
import { allowForTask, rulesOfRelease } from './task-allow'
import { assertControl } from './state-machine'

/** What the person (through the panel, console or API) can tell a task. */
export function createTaskCommands(deps: EngineDeps, mutate: Mutate, kick: (taskId: string) => Promise<void>) {
  /** A change after which the task may move on: the next queued step is proposed, or the planner asked. */
  async function changeThenAdvance(taskId: string, change: (task: TaskRecord, events: PendingEvent[]) => void | Promise<void>) {
    const observation = await deps.store.getObservation(taskId)
    const status = await mutate(taskId, async (task, events) => {
      await change(task, events)
      await advance(task, observation, deps, events)
      return task.status
    })
    void kick(taskId)
    return { status }
  }

  /**
   * "Always allow this on this site" or "… for the rest of this task": the kinds of the held requests a release
   * lets go on are let through from now on, on the site or in this task; what the audit says of it. Site rules
   * need somewhere to keep them: without, nothing is allowed and the next one is asked about.
   */
  async function allowLikeThis(task: TaskRecord, body: ConfirmBody, by: string) {
    if (!body.approved || !(body.forTask || (body.always && deps.allowedWrites))) return {}
    const allowWrites = rulesOfRelease(task.current!.action)
    if (!allowWrites.length) return {}
    if (body.forTask) {
      allowForTask(task, allowWrites)
      return { forTask: true, allowWrites, scope: 'task' as const }
    }
    await deps.allowedWrites!.add(allowWrites, by)
    return { always: true, allowWrites, scope: 'site' as const }
  }

  return {
    confirm(body: ConfirmBody, source: RequestSource) {
      return changeThenAdvance(body.taskId, async (task, events) => {
        const current = task.current
        assertControl(task.status, 'confirm')
        if (current?.phase !== 'awaiting_confirmation') {
          throw conflict(`No action of this task is waiting for confirmation (it is ${task.status}).`)
        }
        if (current.action.actionId !== body.actionId) {
          throw conflict('That is not the action waiting for confirmation.', { waiting: current.action.actionId })
        }
        const at = new Date().toISOString()
        const by = source.clientId ?? 'api'
        noteAnswer(task, 'confirmation', source, { approved: body.approved, reason: body.reason, actionId: body.actionId }, at)
        const allowed = await allowLikeThis(task, body, by)
        events.push({
          type: 'confirmation.answered',
          actionId: body.actionId,
          data: { approved: body.approved, ...(body.reason ? { reason: body.reason } : {}), by, at, source, ...allowed },
        })
        if (body.approved) {
          widenPlan(task.plan, current.reasonDetails)
          current.action.confirmation = { approved: true, at, by }
          current.phase = 'ready'
        } else {
          refuseRelease(task, 'rejected', events, by)
          task.steps.push({
            seq: current.action.seq,
            actionId: current.action.actionId,
            type: current.action.type,
            risk: current.action.risk,
            outcome: 'rejected',
            errors: [],
            ...(current.goal ? { goal: current.goal } : {}),
            ...(current.targetText ? { target: current.targetText } : {}),
            ...typedOf(current.action),
            ...(body.reason ? { note: body.reason } : {}),
            at,
          })
          task.lastOutcome = { kind: 'rejected', actionId: current.action.actionId, type: current.action.type, reason: body.reason }
          task.current = null
          task.queue = []
        }
        setStatus(task, 'RUNNING', events, body.approved ? 'the person approved the action' : 'the person rejected the action')
      })
    },

    answer(body: AnswerBody, source: RequestSource) {
      return changeThenAdvance(body.taskId, (task, events) => {
        assertControl(task.status, 'answer')
        if (body.siteAccess === 'refused' && !task.askedSite) throw conflict('This task is not asking about a site.')
        events.push({ type: 'user.answered', data: { question: task.question, answer: body.answer, source } })
        noteAnswer(task, 'question', source, { question: task.question, answer: body.answer })
        keepExchange(task, body)
        if (body.siteAccess === 'refused') {
          refuseSite(task, source, events)
          if (isTerminal(task.status)) return
        }
        // A queued step (a site that needed authorising) keeps the outcome the planner saw before the question.
        if (!task.queue.length && body.siteAccess !== 'refused') task.lastOutcome = { kind: 'answered', question: task.question, answer: body.answer }
        task.question = undefined
        task.questionWords = undefined
        task.askedSite = undefined
        setStatus(task, 'RUNNING', events, 'the person answered')
      })
    },

    async pause(body: TaskCommandBody, source: RequestSource) {
      const status = await mutate(body.taskId, async (task, events) => {
        assertControl(task.status, 'pause')
        const from = task.status
        const held = task.current?.action.type === 'release' && task.current.phase === 'awaiting_confirmation'
        if (held) dropRelease(task, events)
        setStatus(task, 'PAUSED', events, body.reason ?? 'the person took over')
        task.pausedFrom = held ? 'RUNNING' : from
        events.push({ type: 'task.paused', data: { from, reason: body.reason, source } })
        return task.status
      })
      return { status }
    },

    resume(body: TaskCommandBody, source: RequestSource) {
      return changeThenAdvance(body.taskId, (task, events) => {
        assertControl(task.status, 'resume')
        const to = task.pausedFrom ?? 'RUNNING'
        events.push({ type: 'task.resumed', data: { to, reason: body.reason, source } })
        setStatus(task, to, events, body.reason ?? 'the person handed control back')
        task.pausedFrom = undefined
        task.resumedAt = new Date().toISOString()
      })
    },

    async cancel(body: TaskCommandBody, source: RequestSource) {
      const status = await mutate(body.taskId, async (task, events) => {
        assertControl(task.status, 'cancel')
        const { by } = noteAnswer(task, 'cancel', source, { reason: body.reason })
        // An agent's cancel names the agent wherever the person reads how the task ended.
        const agent = by.kind === 'agent' ? { details: { canceledBy: principalWords(by) } } : {}
        task.error = { code: 'CANCELED', message: body.reason ?? `Canceled by ${principalWords(by)}.`, ...agent }
        events.push({ type: 'task.canceled', data: { reason: body.reason, source } })
        refuseRelease(task, 'canceled', events)
        finish(task, 'CANCELED', events, body.reason ?? 'canceled')
        return task.status
      })
      return { status }
    },
  }
}

/** The timeline keeps this many questions and answers of a task: the newest ones. */
const MAX_EXCHANGES = 50

/** The question and its answer, for the panel's timeline: the audit has them too, but the panel reads the task. */
function keepExchange(task: TaskRecord, body: AnswerBody) {
  const exchange: TaskExchange = {
    question: task.question ?? '',
    ...(task.questionWords ? { questionWords: task.questionWords } : {}),
    ...(task.askedSite ? { site: task.askedSite.origin } : {}),
    answer: body.answer,
    ...(body.siteAccess && task.askedSite ? { siteAccess: body.siteAccess } : {}),
    at: new Date().toISOString(),
  }
  task.exchanges = [...(task.exchanges ?? []), exchange].slice(-MAX_EXCHANGES)
}

/**
 * The person takes the page over while a held write waits for them: the extension lets it fail as the tab is
 * handed back, so the question goes, and the planner hears that nothing was sent once the task is resumed.
 */
function dropRelease(task: TaskRecord, events: PendingEvent[]) {
  const { action } = task.current!
  refuseRelease(task, 'paused', events)
  const errors = [{ code: 'ACTION_FAILED' as const, message: 'The person took over before deciding; what the page tried to send was not sent.' }]
  task.steps.push({ seq: action.seq, actionId: action.actionId, type: action.type, risk: action.risk, outcome: 'failed', errors, at: new Date().toISOString() })
  task.lastOutcome = { kind: 'failed', actionId: action.actionId, type: action.type, errors }
  task.current = null
}

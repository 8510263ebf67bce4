import { stateForTask } from './coming-tab'
import { Observation, isTerminal, runsInPage, type Action, type ObservationInput, type TaskStatus } from '#protocol'
import type { ServerClient } from '../server/client'
import { isServerError, type ServerError } from '../server/errors'
import { createConnection, type Connection } from './connection'
import { recoveredObservation, unknownOutcome } from './recovery'
import {
  clearResult,
  readResult,
  reportedState,
  readState,
  updateActivity,
  updateState,
  type ExecutorState,
  type InFlight,
} from './state'
import { actionBudgetMs } from './run-action'

export interface ExecutorDeps {
  server: Pick<ServerClient, 'next' | 'report'>
  /**
   * Runs one action (see runAction); gets the state so it can find the task's tab, and calls `touching` (and
   * waits for it) right before anything reaches the page or the tab: the execution lock is written meanwhile, and
   * only `touching` waits for it.
   */
  execute: (action: Action, state: ExecutorState, touching: () => Promise<void>) => Promise<ObservationInput>
  /** Any extension API call: a pending fetch does not keep the worker alive, an API call does. */
  keepAlive: () => Promise<unknown>
  serverUrl: () => Promise<string>
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  pollWaitMs?: number
  keepAliveMs?: number
  /** Stop polling after this long without work; the alarm wakes the worker again. */
  idleLimitMs?: number
  /**
   * Each task status the server reports (null: this client has no active task), before its action runs:
   * the in-page indicator and the badge follow the task through it.
   */
  onStatus?: (taskId: string | null, status: TaskStatus | null) => Promise<void>
  /**
   * Watches an action while it runs, and returns the end of the watch: a task canceled elsewhere (the console,
   * any API client) must not wait out a long step in the page.
   */
  watch?: (action: Pick<Action, 'taskId' | 'type'>) => () => void
  /**
   * After an action's report was sent (or could not be): what held the tab for the action lets go of it, unless
   * `next`, the task's next action, came with the reply and runs at once.
   */
  afterReport?: (done: Action, next: Action | null) => Promise<void>
}

/**
 * The worker's loop: report what is left over, pull the next action, run it under an execution lock kept in
 * storage, report, repeat while there is work. A worker stopped at any point resumes here on its next wake.
 */
export function createExecutor(deps: ExecutorDeps) {
  const now = deps.now ?? Date.now
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const pollWaitMs = deps.pollWaitMs ?? 20_000
  const idleLimitMs = deps.idleLimitMs ?? 5 * 60_000
  const connection: Connection = createConnection({ now, sleep, serverUrl: deps.serverUrl })
  let running: Promise<void> | null = null
  /** A wake that arrived while the loop ran: it runs once more, forced if any of those wakes was. */
  let again: { force: boolean } | null = null

  const follow = (taskId: string | null, status: TaskStatus | null) =>
    deps.onStatus?.(taskId, status).catch((error: unknown) => console.warn('[tandem] following the task status failed', error))

  /** Turns the in-flight record into a result, without ever running its action again. */
  async function finishLeftover(inflight: InFlight): Promise<InFlight> {
    if (inflight.phase === 'finished') return inflight
    let result = await readResult(inflight.actionId)
    if (!result && runsInPage(inflight.type)) {
      // The content script leaves its result in storage even if the worker died meanwhile: it may still be working on it.
      const unwatch = deps.watch?.(inflight)
      try {
        while (!result && now() < inflight.startedAt + inflight.graceMs) {
          await sleep(250)
          result = await readResult(inflight.actionId)
        }
      } finally {
        unwatch?.()
      }
    }
    const observation = result ? recoveredObservation(result, now) : unknownOutcome(inflight, now)
    const finished: InFlight = { ...inflight, phase: 'finished', observation }
    await updateState((s) => ({ ...s, inflight: finished }))
    return finished
  }

  const forgotten = (s: ExecutorState, inflight: InFlight, closedTab = false) => reportedState(s, inflight, now(), closedTab)

  async function forget(inflight: InFlight, closedTab: boolean) {
    // Side by side: the finished record carries the observation, so a worker stopped after the page's copy went and
    // before the record did still reports from the record.
    await Promise.all([updateState((s) => forgotten(s, inflight, closedTab)), clearResult(inflight.actionId)])
  }

  /**
   * Reports the leftover result, if any. False when the server could not take it yet (try again later); with
   * `takeNext`, the task's next action when the server handed it over with its reply, and the reported action
   * itself when that next action's lock is to let it go (see run).
   */
  async function settle(takeNext = false, just?: Finished): Promise<false | { next: Action | null; reported?: InFlight }> {
    const done = { next: null }
    // The result that just came is the one to report: only what a fresh worker left over is read back.
    const state = just ? { inflight: just.finished } : await readState()
    if (!state.inflight) return done
    if (state.inflight.phase === 'locked') {
      // Stopped before anything reached the page: nothing happened, so the server's next delivery of the
      // same action runs it (once) instead of it being declared unknown after the whole grace period.
      const { actionId } = state.inflight
      await updateState((s) => (s.inflight?.actionId === actionId && s.inflight.phase === 'locked' ? { ...s, inflight: null } : s))
      return done
    }
    const inflight = await finishLeftover(state.inflight)
    let observation = inflight.observation!
    for (let attempt = 0; ; attempt++) {
      const body = { taskId: inflight.taskId, actionId: inflight.actionId, observation, ...(takeNext ? { takeNext } : {}) }
      // Reported while it is written: a worker stopped in between finds it and reports it again, which the server
      // takes as the same report. Nothing goes on before it is written.
      const [reply] = await Promise.all([connection.call(() => deps.server.report(body)), attempt === 0 ? just?.written : undefined])
      if (reply.ok || isFinal(reply.error)) {
        if (!reply.ok) console.warn(`[tandem] the server refused the result of ${inflight.actionId}: ${reply.error.message}`)
        const codes = new Set(observation.errors?.map((e) => e.code))
        const next = (reply.ok && reply.value.action) || null
        const needsSite = deniedSite(inflight.taskId, observation)
        // The task goes on at once: its next step's lock lets this one go in the same write, and its activity says
        // what runs now.
        if (reply.ok && next?.taskId === inflight.taskId && !codes.has('TASK_TAB_CLOSED') && !needsSite) {
          await follow(inflight.taskId, reply.value.status)
          return { next, reported: inflight }
        }
        // Apart from each other, so done side by side: the status followed (the report's answer is the first word of a
        // task now waiting for the person: the long-poll would wait it out), the lock let go, the panel told.
        await Promise.all([
          reply.ok ? follow(inflight.taskId, reply.value.status) : undefined,
          forget(inflight, codes.has('TASK_TAB_CLOSED')),
          updateActivity({
            lastAction: { taskId: inflight.taskId, actionId: inflight.actionId, type: inflight.type, status: observation.status, at: now() },
            needsSite,
          }),
        ])
        return { next }
      }
      if (reply.error.code === 'PAYLOAD_TOO_LARGE' && observation.artifacts?.length && attempt === 0) {
        observation = {
          ...observation,
          artifacts: [],
          errors: [...(observation.errors ?? []), { code: 'SCREENSHOT_UNAVAILABLE', message: 'The screenshots were too large to upload.' }],
        }
        continue
      }
      return false
    }
  }

  /** An action's result as it comes, and its writing to storage. */
  interface Finished {
    finished: InFlight
    written: Promise<unknown>
  }

  /** Runs `action`; `reported`, the task's step reported just before, is let go in the same write as the lock. */
  async function run(action: Action, reported?: InFlight): Promise<Finished | undefined> {
    const state = await stateForTask(action.taskId, now)
    const letGo = (s: ExecutorState) => (reported ? forgotten(s, reported) : s)
    const cleared = reported ? clearResult(reported.actionId) : undefined
    const inflight: InFlight = {
      taskId: action.taskId,
      actionId: action.actionId,
      type: action.type,
      tabId: state.tasks[action.taskId]?.tabId ?? null,
      startedAt: now(),
      graceMs: actionBudgetMs(action) + 30_000,
      phase: 'locked',
    }
    if (state.reported.includes(action.actionId)) {
      // Reported before, yet offered again: say so rather than doing it twice.
      inflight.phase = 'finished'
      inflight.observation = failure('This action already ran and its result was reported; Tandem never runs an action twice.')
      await Promise.all([updateState((s) => ({ ...letGo(s), inflight })), cleared])
      return
    }
    // The lock goes to storage before anything touches the page: the step makes ready (its tab, its guard) while it
    // is written, and `touching` waits for it.
    const locking = Promise.all([
      updateState((s) => ({ ...letGo(s), inflight })),
      cleared,
      updateActivity({
        lastAction: { taskId: action.taskId, actionId: action.actionId, type: action.type, status: 'running', at: now() },
        ...(reported ? { needsSite: null } : {}),
      }),
    ])
    locking.catch(() => undefined)
    let observation: Observation
    const unwatch = deps.watch?.(action)
    const touching = async () => {
      await locking
      await updateState((s) => (s.inflight?.actionId === action.actionId && s.inflight.phase === 'locked' ? { ...s, inflight: { ...s.inflight, phase: 'started' } } : s))
    }
    try {
      const parsed = Observation.safeParse(await deps.execute(action, { ...state, inflight }, touching))
      observation = parsed.success ? parsed.data : failure(`The extension produced an invalid observation: ${parsed.error.issues[0]?.message}`)
    } catch (error) {
      observation = failure(`The extension failed: ${(error as Error)?.message ?? error}`)
    } finally {
      unwatch?.()
    }
    // A lock that could not be written fails the run as it always did: nothing is reported, the action comes again.
    await locking
    const finished: InFlight = { ...inflight, phase: 'finished', observation }
    const written = updateState((s) => ({ ...s, inflight: { ...finished, tabId: s.tasks[action.taskId]?.tabId ?? null } }))
    return { finished, written }
  }

  async function pump(force: boolean) {
    if (!force && !(await connection.mayTry())) return
    if (!(await settle())) return
    let lastWork = now()
    // The task just worked on is asked for by id until it stops running: its next step is the likeliest work.
    let focus: string | undefined
    /** The next action the server handed over with the last report: run without asking for it. */
    let handed: Action | null = null
    /** The step reported with it, which the handed action's lock lets go. */
    let before: InFlight | undefined
    for (;;) {
      let taskId: string | null
      let status: TaskStatus | null
      let action: Action | null
      let leftover: InFlight | undefined
      if (handed) {
        action = handed
        taskId = handed.taskId
        status = 'RUNNING'
        leftover = before
        handed = null
        before = undefined
      } else {
        const ask = { waitMs: pollWaitMs, ...(focus ? { taskId: focus } : {}) }
        const reply = await connection.call(() => deps.server.next(ask))
        if (!reply.ok) {
          if (focus && ['NOT_FOUND', 'CONFLICT'].includes(reply.error.code)) {
            focus = undefined
            continue
          }
          return
        }
        ;({ taskId, status, action } = reply.value)
        await updateActivity({ task: taskId && status ? { taskId, status } : null })
        await follow(taskId, status)
      }
      if (action) {
        let reported: Awaited<ReturnType<typeof settle>> = false
        try {
          reported = await settle(true, await run(action, leftover))
        } finally {
          await deps.afterReport?.(action, reported ? reported.next : null).catch((error: unknown) => console.warn('[tandem] releasing the task tab failed', error))
        }
        if (!reported) return
        handed = reported.next
        before = reported.reported
        focus = action.taskId
        lastWork = now()
        continue
      }
      if (focus && (!status || !['RUNNING', 'WAITING_PAGE'].includes(status))) {
        focus = undefined
        continue
      }
      if (!taskId || !status || isTerminal(status)) return
      if (now() - lastWork > idleLimitMs) return
    }
  }

  return {
    /** Pulls and runs work until there is none; concurrent wakes share one loop. `force` skips the back-off. */
    wake(force = false): Promise<void> {
      if (running) {
        again = { force: force || !!again?.force }
        return running
      }
      const timer = setInterval(() => void deps.keepAlive().catch(() => undefined), deps.keepAliveMs ?? 10_000)
      running = (async () => {
        try {
          let next: { force: boolean } | null = { force }
          while (next) {
            again = null
            await pump(next.force)
            next = again
          }
        } catch (error) {
          console.error('[tandem] the executor stopped', error)
        } finally {
          clearInterval(timer)
          running = null
        }
      })()
      return running
    },
  }
}
export type Executor = ReturnType<typeof createExecutor>

const failure = (message: string): Observation =>
  Observation.parse({ status: 'failed', url: '', errors: [{ code: 'ACTION_FAILED', message: message.slice(0, 4000) }] })

/** The server will never take this result: keep it from blocking the queue. */
const isFinal = (error: ServerError) => isServerError(error) && ['CONFLICT', 'NOT_FOUND', 'BAD_REQUEST'].includes(error.code)

/** The site a refused step needed: the one the page named (a link or form leaving for it), else the page's own. */
export function deniedSite(taskId: string, observation: ObservationInput): { taskId: string; origin: string; from?: string } | null {
  const denied = observation.errors?.find((e) => e.code === 'PERMISSION_DENIED')
  if (!denied) return null
  const url = denied.origin ?? observation.url
  if (!URL.canParse(url)) return null
  const origin = new URL(url).origin
  const from = URL.canParse(observation.url) ? new URL(observation.url).origin : undefined
  // A step that would leave the page for another site may come from the page's own text: the panel says so.
  return from && from !== origin && from !== 'null' ? { taskId, origin, from } : { taskId, origin }
}

import { z } from 'zod'
import { ActionType, Observation, TaskStatus } from '#protocol'
import { storage } from 'wxt/utils/storage'
import { ActOutcome } from '../messages'

/**
 * Everything the executor knows lives in chrome.storage, because the worker may be stopped between any two
 * lines: a fresh worker must be able to tell what ran, what finished and what still has to be reported.
 */

export const InFlight = z.object({
  taskId: z.string(),
  actionId: z.string(),
  type: ActionType,
  tabId: z.number().int().nullable(),
  startedAt: z.number(),
  /** After this long without a result the outcome is declared unknown (never re-run). */
  graceMs: z.number(),
  /**
   * "locked": the lock is taken and nothing has reached the page yet, so a fresh worker may let it be delivered
   * and run again; "started": the page (or the tab) may have been touched, so it never runs again.
   */
  phase: z.enum(['locked', 'started', 'finished']),
  /** Set with phase "finished": kept until the server acknowledged it. */
  observation: Observation.optional(),
})
export type InFlight = z.output<typeof InFlight>

export const TaskTab = z.object({
  /** The tab the task works in now. */
  tabId: z.number().int(),
  closed: z.boolean(),
  at: z.number(),
  /** Every tab the task owns, with its number for the task (see task-tabs.ts); absent: only `tabId`, as 1. */
  tabs: z.array(z.object({ tabId: z.number().int(), tab: z.number().int().min(1), opener: z.number().int().optional() })).optional(),
  /** The number the next tab it opens gets (numbers are never reused). */
  nextTab: z.number().int().optional(),
  /** The browser's tab group holding the task's tabs, titled with the task's name. */
  group: z.number().int().optional(),
})
export type TaskTab = z.output<typeof TaskTab>

export const ExecutorState = z.object({
  inflight: InFlight.nullable(),
  tasks: z.record(z.string(), TaskTab),
  /** Recently reported action ids, newest last: a re-delivered one is never run again. */
  reported: z.array(z.string()),
  /**
   * The panel is starting a task in this tab and will name the task once the server answered: until then (or
   * COMING_MS) a new task's first step waits for it, instead of opening a tab of its own.
   */
  coming: z.object({ tabId: z.number().int(), at: z.number() }).nullable().optional(),
})
export type ExecutorState = z.output<typeof ExecutorState>

export const EMPTY_STATE: ExecutorState = { inflight: null, tasks: {}, reported: [] }
export const REPORTED_KEPT = 200
export const COMING_MS = 5_000
const TASKS_KEPT_MS = 7 * 24 * 3600_000

export const executorItem = storage.defineItem<ExecutorState>('local:tandem.executor', { fallback: EMPTY_STATE })

export async function readState(): Promise<ExecutorState> {
  const parsed = ExecutorState.safeParse(await executorItem.getValue())
  return parsed.success ? parsed.data : EMPTY_STATE
}

/**
 * Runs read-modify-writes of one item one after another. The executor, the takeover, the panel's requests and
 * the status watch all write from the same worker at once; interleaved, one would silently undo the other
 * (a lost in-flight lock lets an action run twice).
 */
function serial() {
  let tail: Promise<unknown> = Promise.resolve()
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work)
    tail = run.catch(() => undefined)
    return run
  }
}
const stateWrites = serial()
const activityWrites = serial()

/** Read-modify-write, one at a time. */
export function updateState(change: (state: ExecutorState) => ExecutorState): Promise<ExecutorState> {
  return stateWrites(async () => {
    const next = change(await readState())
    await executorItem.setValue(next)
    return next
  })
}

export const forgetOldTasks = (tasks: ExecutorState['tasks'], now: number) =>
  Object.fromEntries(Object.entries(tasks).filter(([, t]) => now - t.at < TASKS_KEPT_MS))

/** The state once `inflight` was reported: no longer in flight, and never run again; its tab closed, if it was. */
export const reportedState = (s: ExecutorState, inflight: InFlight, now: number, closedTab = false): ExecutorState => ({
  ...s,
  inflight: null,
  reported: [...s.reported.filter((id) => id !== inflight.actionId), inflight.actionId].slice(-REPORTED_KEPT),
  tasks:
    closedTab && s.tasks[inflight.taskId]
      ? { ...s.tasks, [inflight.taskId]: { ...s.tasks[inflight.taskId], closed: true } }
      : forgetOldTasks(s.tasks, now),
})

/** Where the content script leaves an action's result before it answers. */
export const resultKey = (actionId: string) => `local:tandem.result.${actionId}` as const

export async function readResult(actionId: string): Promise<ActOutcome | null> {
  const parsed = ActOutcome.safeParse(await storage.getItem(resultKey(actionId)))
  return parsed.success ? parsed.data : null
}

export const clearResult = (actionId: string) => storage.removeItem(resultKey(actionId))

/** What the worker tells the panel about itself. */
export const Activity = z.object({
  connection: z.enum(['unknown', 'ok', 'down', 'not_answering', 'unauthorized', 'not_configured']),
  message: z.string(),
  failures: z.number().int(),
  retryAt: z.number().nullable(),
  task: z.object({ taskId: z.string(), status: TaskStatus }).nullable(),
  lastAction: z
    .object({ taskId: z.string(), actionId: z.string(), type: ActionType, status: z.enum(['running', 'done', 'failed']), at: z.number() })
    .nullable(),
  /** A site the person has to authorise for a task to go on. */
  /** `from`: the page's own site, when the refused step would have taken the page away from it. */
  needsSite: z.object({ taskId: z.string(), origin: z.string(), from: z.string().optional() }).nullable(),
  /**
   * The person took over the task tab (their own input paused the task); cleared when the task resumes,
   * stops or finishes. `input` says how: pointer, key, wheel or touch.
   */
  takeover: z.object({ taskId: z.string(), input: z.string(), reason: z.string(), at: z.number() }).nullable().optional(),
})
export type Activity = z.output<typeof Activity>

export const activityItem = storage.defineItem<Activity>('local:tandem.activity', {
  fallback: { connection: 'unknown', message: '', failures: 0, retryAt: null, task: null, lastAction: null, needsSite: null },
})

/**
 * Read-modify-write, one at a time. A function change is decided in turn, on the activity as it is then: a
 * write that depends on what other writes did (or on whether its news is still the newest) cannot be undone
 * by one queued before it.
 */
export function updateActivity(change: Partial<Activity> | ((activity: Activity) => Partial<Activity>)): Promise<void> {
  return activityWrites(async () => {
    const parsed = Activity.safeParse(await activityItem.getValue())
    const activity = parsed.success ? parsed.data : activityItem.fallback
    const changed = typeof change === 'function' ? change(activity) : change
    // Asked after every step (is a takeover over?): a change of nothing writes nothing, and wakes no panel.
    if (!Object.keys(changed).length) return
    await activityItem.setValue({ ...activity, ...changed })
  })
}

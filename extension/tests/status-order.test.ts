import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeBrowser } from 'wxt/testing'
import type { StatusView, TaskStatus } from '#protocol'
import { activityItem, EMPTY_STATE, type ExecutorState } from '../lib/executor/state'
import type { IndicatorState } from '../lib/indicator/state'
import { followStatus } from '../lib/worker/follow-status'
import { createTakeover } from '../lib/worker/takeover'
import { createTaskChanges } from '../lib/worker/task-changes'
import { createTaskOrder } from '../lib/worker/task-order'
import { action } from './fakes'

const state: ExecutorState = { ...EMPTY_STATE, tasks: { task1: { tabId: 7, closed: false, at: 1 } } }

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

const view = (status: TaskStatus) => ({ task: { id: 'task1', goal: 'g', status, updatedAt: '' } }) as unknown as StatusView

/**
 * One worker's status paths over a server whose status answers the test holds back: `hold()` makes the next
 * status check wait until the test releases it with the status the server had when it answered.
 */
function setup() {
  let status: TaskStatus = 'RUNNING'
  const held: ReturnType<typeof deferred<TaskStatus>>[] = []
  let holdNext = false
  const server = {
    status: vi.fn(async (_taskId: string) => {
      if (!holdNext) return view(status)
      holdNext = false
      const answer = deferred<TaskStatus>()
      held.push(answer)
      return view(await answer.promise)
    }),
    pause: vi.fn(async (_body: { taskId: string; reason?: string }) => ({ status: (status = 'PAUSED') as TaskStatus })),
    resume: vi.fn(async (_body: { taskId: string; reason?: string }) => ({ status: (status = 'RUNNING') as TaskStatus })),
    cancel: vi.fn(async (_body: { taskId: string; reason?: string }) => ({ status: (status = 'CANCELED') as TaskStatus })),
  }
  /** What the page's bar shows: only what the indicator sync would still tell it. */
  const page: IndicatorState[] = []
  const indicator = { show: vi.fn(async (_taskId: string, shown: IndicatorState, newest: () => boolean = () => true) => void (newest() && page.push(shown))) }
  const seen = { gate: null as Promise<void> | null }
  const attention = { seen: vi.fn(async () => void (await seen.gate)) }
  const order = createTaskOrder()
  const follow = followStatus({ attention, indicator, order })
  const stopAction = vi.fn(async () => false)
  const changes = createTaskChanges({ server, stopAction, follow, order, everyMs: 2000 })
  const takeover = createTakeover({ server, wake: vi.fn(), stopAction, order, readState: async () => state, now: () => 1000 })
  return {
    server,
    page,
    seen,
    changes,
    takeover,
    hold: () => void (holdNext = true),
    held,
    set: (next: TaskStatus) => void (status = next),
  }
}

const activity = () => activityItem.getValue()

beforeEach(() => fakeBrowser.reset())
afterEach(() => vi.useRealTimers())

describe('the order of a task’s status in the worker', () => {
  it('keeps a takeover when a status check asked before it answers after it', async () => {
    vi.useFakeTimers()
    const w = setup()
    const unwatch = w.changes.watch(action({ type: 'waitFor' }))
    w.hold()
    await vi.advanceTimersByTimeAsync(2000)
    expect(w.held).toHaveLength(1)

    // The person takes over while that check is on its way.
    expect(await w.takeover.handle({ kind: 'takeover', input: 'pointer' }, 7)).toEqual({ state: 'takeover' })
    expect((await activity()).takeover).toMatchObject({ taskId: 'task1', input: 'pointer' })

    // The old check saw the task before the pause.
    w.held[0].resolve('RUNNING')
    await vi.advanceTimersByTimeAsync(0)
    expect((await activity()).takeover).toMatchObject({ taskId: 'task1', input: 'pointer' })
    expect((await activity()).task).toEqual({ taskId: 'task1', status: 'PAUSED' })
    expect(w.page).not.toContain('ongoing')

    // A check asked after the pause is news: the task was resumed from the console.
    w.set('RUNNING')
    await vi.advanceTimersByTimeAsync(2000)
    expect((await activity()).task).toEqual({ taskId: 'task1', status: 'RUNNING' })
    expect((await activity()).takeover).toBeNull()
    expect(w.page.at(-1)).toBe('ongoing')
    unwatch()
  })

  it('keeps a takeover that lands while an older status is still being followed', async () => {
    const w = setup()
    const badge = deferred<void>()
    w.seen.gate = badge.promise
    // The panel's look at the task answers RUNNING, and following it waits on the badge.
    const change = w.changes.changed('task1')
    await vi.waitFor(() => expect(w.server.status).toHaveBeenCalledTimes(1))
    await new Promise((r) => setTimeout(r, 0))

    w.seen.gate = null
    expect(await w.takeover.handle({ kind: 'takeover', input: 'key' }, 7)).toEqual({ state: 'takeover' })
    badge.resolve()
    await change

    expect((await activity()).takeover).toMatchObject({ taskId: 'task1', input: 'key' })
    expect((await activity()).task).toEqual({ taskId: 'task1', status: 'PAUSED' })
    expect(w.page).not.toContain('ongoing')
  })

  it('lets a resume from the page win over a check asked before it', async () => {
    const w = setup()
    w.set('PAUSED')
    await w.takeover.handle({ kind: 'takeover', input: 'pointer' }, 7)
    w.hold()
    const change = w.changes.changed('task1')
    await vi.waitFor(() => expect(w.held).toHaveLength(1))
    expect(await w.takeover.handle({ kind: 'indicator-command', command: 'resume' }, 7)).toEqual({ state: 'ongoing' })
    w.held[0].resolve('PAUSED')
    // The panel hears what the worker holds: the resume.
    expect(await change).toEqual({ status: 'RUNNING', stopped: false })
    expect((await activity()).task).toEqual({ taskId: 'task1', status: 'RUNNING' })
    expect(w.page).not.toContain('takeover')
  })
})

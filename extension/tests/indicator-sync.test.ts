import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeBrowser } from 'wxt/testing'
import { activityItem, EMPTY_STATE, type ExecutorState } from '../lib/executor/state'
import { followStatus } from '../lib/worker/follow-status'
import { createIndicatorSync, taskOfTab } from '../lib/worker/indicator-sync'
import { createTaskOrder } from '../lib/worker/task-order'

const base: ExecutorState = { ...EMPTY_STATE, tasks: { task1: { tabId: 7, closed: false, at: 1 } } }

function setup(opts: { url?: string; status?: 'complete' | 'loading'; granted?: boolean; state?: ExecutorState } = {}) {
  const content = {
    ensure: vi.fn(async () => undefined),
    ask: vi.fn(async (_tabId: number, request: { kind: string; state?: string }) => (request.kind === 'indicator' ? { state: request.state } : { stopped: true })),
  }
  const sync = createIndicatorSync({
    tabs: { get: vi.fn(async (id: number) => ({ id, url: opts.url ?? 'http://shop.example/', status: opts.status ?? 'complete' })) } as never,
    permissions: { contains: vi.fn(async () => opts.granted ?? true) } as never,
    content: content as never,
    serverUrl: async () => 'http://127.0.0.1:3000',
    readState: async () => opts.state ?? base,
  })
  return { sync, content }
}

beforeEach(() => fakeBrowser.reset())

describe('indicator sync', () => {
  it('starts Tandem in the task tab to show that the agent or the person is in control', async () => {
    const { sync, content } = setup()
    await sync.show('task1', 'ongoing')
    expect(content.ensure).toHaveBeenCalledWith(7)
    expect(content.ask).toHaveBeenCalledWith(7, { kind: 'indicator', state: 'ongoing' }, 2000)
  })

  it('only tells a page that is already running Tandem that the task is over', async () => {
    const { sync, content } = setup()
    await sync.show('task1', 'idle')
    expect(content.ensure).not.toHaveBeenCalled()
    expect(content.ask).toHaveBeenCalledWith(7, { kind: 'indicator', state: 'idle' }, 2000)
  })

  it('leaves alone tabs that are loading, sites that were not granted, the server’s pages and tasks without a tab', async () => {
    for (const opts of [{ status: 'loading' as const }, { granted: false }, { url: 'http://127.0.0.1:3000/console' }]) {
      const { sync, content } = setup(opts)
      await sync.show('task1', 'ongoing')
      expect(content.ensure).not.toHaveBeenCalled()
      expect(content.ask).not.toHaveBeenCalled()
    }
    const { sync, content } = setup()
    await sync.show('other', 'ongoing')
    expect(content.ask).not.toHaveBeenCalled()
  })

  it('tells the page nothing once a newer state overtook the one it was asked to show', async () => {
    const { sync, content } = setup()
    await sync.show('task1', 'ongoing', () => false)
    expect(content.ask).not.toHaveBeenCalled()
  })

  it('tells a page a state it already shows only when asked to, and again once the tab loads another document', async () => {
    const { sync, content } = setup()
    await sync.show('task1', 'ongoing', undefined, { changed: true })
    await sync.show('task1', 'ongoing', undefined, { changed: true })
    expect(content.ask).toHaveBeenCalledTimes(1)
    // Unasked for (a load, see createTabLoads), it is told again.
    await sync.show('task1', 'ongoing')
    expect(content.ask).toHaveBeenCalledTimes(2)
    await sync.show('task1', 'approval', undefined, { changed: true })
    expect(content.ask).toHaveBeenLastCalledWith(7, { kind: 'indicator', state: 'approval' }, 2000)
    sync.forget(7)
    await sync.show('task1', 'approval', undefined, { changed: true })
    expect(content.ask).toHaveBeenCalledTimes(4)
  })

  it('forgets what a page was told when telling it failed', async () => {
    const { sync, content } = setup()
    content.ask.mockRejectedValueOnce(new Error('gone'))
    await sync.show('task1', 'ongoing', undefined, { changed: true })
    await sync.show('task1', 'ongoing', undefined, { changed: true })
    expect(content.ask).toHaveBeenCalledTimes(2)
  })

  it('stops the step a task is running in its tab, and nothing else', async () => {
    const inflight = { taskId: 'task1', actionId: 'act1', type: 'waitFor' as const, tabId: 7, startedAt: 0, graceMs: 1, phase: 'started' as const }
    const running = setup({ state: { ...base, inflight } })
    expect(await running.sync.stopAction('task1')).toBe(true)
    expect(running.content.ask).toHaveBeenCalledWith(7, { kind: 'stop', actionId: 'act1', why: 'stopped' }, 2000)
    expect(await running.sync.stopAction('other')).toBe(false)
    const idle = setup()
    expect(await idle.sync.stopAction('task1')).toBe(false)
    expect(idle.content.ask).not.toHaveBeenCalled()
  })

  it('finds the task that owns a tab: the latest one, never a closed one', () => {
    const state: ExecutorState = {
      ...EMPTY_STATE,
      tasks: { old: { tabId: 7, closed: false, at: 1 }, new: { tabId: 7, closed: false, at: 2 }, gone: { tabId: 8, closed: true, at: 3 } },
    }
    expect(taskOfTab(state, 7)).toBe('new')
    expect(taskOfTab(state, 8)).toBeNull()
  })
})

describe('following the task status', () => {
  it('updates the badge, the indicator, and ends the takeover note once the task is no longer paused', async () => {
    const attention = { seen: vi.fn(async () => undefined) }
    const indicator = { show: vi.fn(async () => undefined) }
    const follow = followStatus({ attention, indicator, order: createTaskOrder() })
    await activityItem.setValue({ ...activityItem.fallback, takeover: { taskId: 'task1', input: 'pointer', reason: 'r', at: 1 } })
    await follow('task1', 'PAUSED')
    expect(indicator.show).toHaveBeenLastCalledWith('task1', 'takeover', expect.any(Function), { changed: true })
    expect((await activityItem.getValue()).takeover).not.toBeNull()
    await follow('task1', 'RUNNING')
    expect(indicator.show).toHaveBeenLastCalledWith('task1', 'ongoing', expect.any(Function), { changed: true })
    expect((await activityItem.getValue()).takeover).toBeNull()
    await follow(null, null)
    expect(attention.seen).toHaveBeenLastCalledWith(null, null)
    expect(indicator.show).toHaveBeenCalledTimes(2)
  })
})

describe('following the task status: the debugger', () => {
  it('hands every status to the debugger hold, and none that a newer answer overtook', async () => {
    const attention = { seen: vi.fn(async () => undefined) }
    const indicator = { show: vi.fn(async () => undefined) }
    const debuggerHold = { follow: vi.fn(async () => undefined) }
    const order = createTaskOrder()
    const follow = followStatus({ attention, indicator, order, debugger: debuggerHold })
    await follow('task1', 'RUNNING')
    await follow(null, null)
    const stale = order.take()
    order.admit('task1', 'PAUSED')
    await follow('task1', 'RUNNING', stale)
    expect(debuggerHold.follow.mock.calls).toEqual([
      ['task1', 'RUNNING'],
      [null, null],
    ])
  })
})

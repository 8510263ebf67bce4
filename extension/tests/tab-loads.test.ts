import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeBrowser } from 'wxt/testing'
import { EMPTY_STATE, type ExecutorState } from '../lib/executor/state'
import { createIndicatorSync } from '../lib/worker/indicator-sync'
import { createTabLoads } from '../lib/worker/tab-loads'
import { createTaskOrder } from '../lib/worker/task-order'

const state: ExecutorState = {
  ...EMPTY_STATE,
  tasks: { task1: { tabId: 7, closed: false, at: 1 }, done: { tabId: 8, closed: false, at: 1 }, gone: { tabId: 9, closed: true, at: 1 } },
}

/** Tab loads over the real indicator sync; `granted` is the site permission of every page. */
function setup(granted = true) {
  const content = { ensure: vi.fn(async () => undefined), ask: vi.fn(async () => ({ state: 'takeover' })) }
  const indicator = createIndicatorSync({
    tabs: { get: vi.fn(async (id: number) => ({ id, url: 'http://shop.example/', status: 'complete' })) } as never,
    permissions: { contains: vi.fn(async () => granted) } as never,
    content: content as never,
    serverUrl: async () => 'http://127.0.0.1:3000',
    readState: async () => state,
  })
  const order = createTaskOrder()
  order.admit('task1', 'PAUSED')
  order.admit('done', 'SUCCEEDED')
  const refresh = vi.fn(async () => undefined)
  const loads = createTabLoads({ order, indicator, refresh, readState: async () => state })
  fakeBrowser.tabs.onUpdated.addListener((tabId, change) => loads.onUpdated(tabId, change))
  return { content, refresh, loads, order }
}

const loaded = async (tabId: number, status: 'loading' | 'complete' = 'complete') => {
  await fakeBrowser.tabs.onUpdated.trigger(tabId, { status }, { id: tabId } as never)
  await new Promise((r) => setTimeout(r, 0))
}

beforeEach(() => fakeBrowser.reset())

describe('a task tab that loads a new page', () => {
  it('shows the paused task’s bar again once the page is complete', async () => {
    const { content } = setup()
    await loaded(7, 'loading')
    expect(content.ask).not.toHaveBeenCalled()
    await loaded(7)
    expect(content.ensure).toHaveBeenCalledWith(7)
    expect(content.ask).toHaveBeenCalledWith(7, { kind: 'indicator', state: 'takeover' }, 2000)
  })

  it('never touches tabs without a live task, nor a site Tandem may not act on', async () => {
    const { content, refresh } = setup()
    for (const tabId of [3, 8, 9]) await loaded(tabId)
    expect(content.ensure).not.toHaveBeenCalled()
    expect(content.ask).not.toHaveBeenCalled()
    expect(refresh).not.toHaveBeenCalled()

    const denied = setup(false)
    await loaded(7)
    expect(denied.content.ensure).not.toHaveBeenCalled()
    expect(denied.content.ask).not.toHaveBeenCalled()
  })

  it('asks the server about a task this worker has no status of yet (a restarted worker)', async () => {
    const { content, refresh, order, loads } = setup()
    expect(order.known('task1')).toBe('PAUSED')
    const fresh = createTabLoads({ order: createTaskOrder(), indicator: { show: vi.fn(), forget: vi.fn() }, refresh, readState: async () => state })
    await fresh.loaded(7)
    expect(refresh).toHaveBeenCalledWith('task1')
    expect(content.ask).not.toHaveBeenCalled()
    await loads.loaded(7)
    expect(refresh).toHaveBeenCalledTimes(1)
  })
})

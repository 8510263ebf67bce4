import { describe, expect, it, vi } from 'vitest'
import type { StorageItemKey } from 'wxt/utils/storage'
import { createContentHandler, type PageLib } from '../lib/content/handler'
import type { IndicatorState } from '../lib/indicator/state'
import { action } from './fakes'

function fakeIndicator() {
  let state: IndicatorState = 'idle'
  const reveal = vi.fn()
  return {
    reveal,
    set: vi.fn((next: IndicatorState) => void (state = next)),
    state: () => state,
    conceal: vi.fn(() => reveal),
  }
}

function setup(
  act: PageLib<number>['act'] = async () => ({ status: 'done', errors: [] }),
  indicator = fakeIndicator(),
  visibilityState: DocumentVisibilityState = 'visible',
) {
  const store = new Map<string, unknown>()
  let observations = 0
  const restore = vi.fn()
  const page: PageLib<number> = {
    observe: vi.fn((_win, previous) => {
      observations += 1
      return { url: 'http://shop.example/', title: 'Shop', elementTree: `[0]<button>Buy</button> #${observations}`, visibleTextSnippet: 'Buy', memory: (previous ?? 0) + 1 }
    }),
    act: vi.fn(act),
    mask: vi.fn(() => restore),
    locate: vi.fn((_win, target, memory) => (target.by === 'index' && memory ? { name: `element ${target.value}`, mark: { x: 0.25, y: 0.5, w: 0.1, h: 0.05 } } : {})),
  }
  const win = { requestAnimationFrame: (cb: () => void) => setTimeout(cb, 1), document: { visibilityState } } as unknown as Window
  const handler = createContentHandler({
    win,
    page,
    store: { get: async (k: StorageItemKey) => store.get(k) ?? null, set: async (k: StorageItemKey, v: unknown) => void store.set(k, v) },
    indicator,
  })
  return { handler, page, store, restore, indicator }
}

describe('content handler', () => {
  it('rejects anything that is not a Tandem request', async () => {
    const { handler } = setup()
    expect(await handler.handle({ kind: 'format-disk' })).toEqual({ error: 'Not a Tandem request.' })
    expect(await handler.handle('ping')).toEqual({ error: 'Not a Tandem request.' })
  })

  it('acts with the memory of the last observation and stores the result before answering', async () => {
    const { handler, page, store } = setup()
    await handler.handle({ kind: 'observe' })
    const reply = await handler.handle({ kind: 'act', action: action(), resultKey: 'local:tandem.result.act1', sites: ['http://shop.example/*'], barrier: 'held' })
    // The granted sites go with it (the page refuses a link or form that would leave for any other), and how the
    // step's writes are watched (where they are held, the page does not refuse the step for its words).
    expect(page.act).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ actionId: 'act1' }), 1, ['http://shop.example/*'], 'held')
    expect(reply).toMatchObject({ actionId: 'act1', status: 'done', page: { title: 'Shop' } })
    expect(store.get('local:tandem.result.act1')).toEqual(reply)
  })

  it('reads the page only once it has settled after the action, and says how long that took', async () => {
    const { handler, page } = setup()
    const order: string[] = []
    page.watchSettle = vi.fn(() => {
      // Watching starts before the action runs; the wait for the page to go still comes after it.
      order.push('watch')
      return {
        settled: async () => {
          order.push('settle')
          await new Promise((r) => setTimeout(r, 30))
          return { ms: 30, quiet: true }
        },
      }
    })
    vi.mocked(page.act).mockImplementation(async () => (order.push('act'), { status: 'done', errors: [] }))
    vi.mocked(page.observe).mockImplementation((_win, previous) => {
      order.push('observe')
      return { url: 'http://shop.example/', title: 'Shop', elementTree: '', visibleTextSnippet: '', memory: (previous ?? 0) + 1 }
    })
    const reply = await handler.handle({ kind: 'act', action: action(), resultKey: 'local:tandem.result.act1' })
    expect(order).toEqual(['watch', 'act', 'settle', 'observe'])
    expect(reply).toMatchObject({ status: 'done', settle: { ms: 30, quiet: true }, timing: { settleMs: expect.any(Number) } })
    // A plain look settles only when the worker asks (after a navigation).
    expect(await handler.handle({ kind: 'observe' })).not.toHaveProperty('settle')
    expect(await handler.handle({ kind: 'observe', settle: true })).toMatchObject({ settle: { ms: 30, quiet: true } })
    expect(page.watchSettle).toHaveBeenCalledTimes(2)
  })

  it('stores the result of a step that changes nothing once, with its reading; a step that settles first, before and after', async () => {
    const { handler, page, store } = setup()
    const writes = vi.spyOn(store, 'set')
    // No watch: the page library says the action changes nothing (a wait for text, an extract).
    page.watchSettle = vi.fn(() => undefined)
    const looked = await handler.handle({ kind: 'act', action: action({ type: 'extract', params: {} }), resultKey: 'local:tandem.result.act1' })
    expect(writes.mock.calls.map(([key, value]) => [key, 'page' in (value as object)])).toEqual([['local:tandem.result.act1', true]])
    expect(store.get('local:tandem.result.act1')).toEqual(looked)

    writes.mockClear()
    let settledYet = false
    page.watchSettle = vi.fn(() => ({
      settled: async () => {
        // What the step did is in storage before the page has settled: a page that unloads meanwhile loses nothing.
        expect(writes.mock.calls.map(([, value]) => 'page' in (value as object))).toEqual([false])
        settledYet = true
        return { ms: 5, quiet: true }
      },
    }))
    const clicked = await handler.handle({ kind: 'act', action: action({ actionId: 'act2' }), resultKey: 'local:tandem.result.act2' })
    expect(settledYet).toBe(true)
    expect(writes.mock.calls.map(([, value]) => 'page' in (value as object))).toEqual([false, true])
    expect(store.get('local:tandem.result.act2')).toEqual(clicked)
  })

  it('runs an action once even when asked twice, at the same time or later', async () => {
    let release!: () => void
    const { handler, page } = setup(() => new Promise((r) => (release = () => r({ status: 'done', errors: [] }))))
    const request = { kind: 'act', action: action(), resultKey: 'local:tandem.result.act1' }
    const first = handler.handle(request)
    const second = handler.handle(request)
    await vi.waitFor(() => expect(release).toBeDefined())
    release()
    expect(await first).toEqual(await second)
    await handler.handle(request)
    expect(page.act).toHaveBeenCalledTimes(1)
  })

  it('turns a throwing action into a failed result with a code', async () => {
    const { handler } = setup(async () => {
      throw new Error('boom')
    })
    const reply = await handler.handle({ kind: 'act', action: action(), resultKey: 'local:tandem.result.act1' })
    expect(reply).toMatchObject({ status: 'failed', errors: [{ code: 'ACTION_FAILED' }] })
  })

  it('masks for a screenshot and restores on unmask, or by itself when unmask never comes', async () => {
    const { handler, restore } = setup()
    expect(await handler.handle({ kind: 'mask', restoreAfterMs: 100 })).toEqual({ masked: true })
    expect(await handler.handle({ kind: 'unmask' })).toEqual({ restored: true })
    expect(restore).toHaveBeenCalledTimes(1)
    await handler.handle({ kind: 'mask', restoreAfterMs: 100 })
    await vi.waitFor(() => expect(restore).toHaveBeenCalledTimes(2), { timeout: 1000 })
  })

  it('answers a mask in a hidden tab at once: nothing paints there, and its timers may wait a second', async () => {
    vi.useFakeTimers()
    try {
      const { handler } = setup(undefined, undefined, 'hidden')
      // No timer is advanced: a wait for a frame would never end.
      expect(await handler.handle({ kind: 'mask', restoreAfterMs: 3000 })).toEqual({ masked: true })
    } finally {
      vi.useRealTimers()
    }
  })

  it('sets the indicator the worker asks for, and hides it while a screenshot is taken', async () => {
    const { handler, indicator } = setup()
    expect(await handler.handle({ kind: 'indicator', state: 'ongoing' })).toEqual({ state: 'ongoing' })
    expect(await handler.handle({ kind: 'indicator', state: 'sideways' })).toEqual({ error: 'Not a Tandem request.' })
    await handler.handle({ kind: 'mask', restoreAfterMs: 1000 })
    expect(indicator.conceal).toHaveBeenCalledTimes(1)
    expect(indicator.reveal).not.toHaveBeenCalled()
    await handler.handle({ kind: 'unmask' })
    expect(indicator.reveal).toHaveBeenCalledTimes(1)
  })

  it('ends a running action when its task is stopped, and says so in its result', async () => {
    const { handler, store } = setup(() => new Promise(() => undefined))
    const running = handler.handle({ kind: 'act', action: action({ type: 'waitFor', params: { text: 'never' } }), resultKey: 'local:tandem.result.act1' })
    await vi.waitFor(async () => expect(await handler.handle({ kind: 'stop', actionId: 'act1' })).toEqual({ stopped: true }))
    const reply = await running
    expect(reply).toMatchObject({ actionId: 'act1', status: 'failed', errors: [{ code: 'ACTION_FAILED', message: 'The task was stopped while this action ran.' }] })
    expect(store.get('local:tandem.result.act1')).toEqual(reply)
    expect(await handler.handle({ kind: 'stop', actionId: 'act1' })).toEqual({ stopped: false })
  })

  it('ends a running action the person took over as taken over, not as failed by the page', async () => {
    const { handler } = setup(() => new Promise(() => undefined))
    const running = handler.handle({ kind: 'act', action: action({ type: 'waitFor', params: { text: 'never' } }), resultKey: 'local:tandem.result.act1' })
    await vi.waitFor(async () => expect(await handler.handle({ kind: 'stop', actionId: 'act1', why: 'taken-over' })).toEqual({ stopped: true }))
    expect(await running).toMatchObject({ status: 'failed', errors: [{ code: 'TAKEN_OVER' }] })
  })
})

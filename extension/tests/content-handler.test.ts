import { describe, expect, it, vi } from 'vitest'
import type { StorageItemKey } from 'wxt/utils/storage'
import { createContentHandler, type PageLib } from '../lib/content/handler'
import { action } from './fakes'

function setup(act: PageLib<number>['act'] = async () => ({ status: 'done', errors: [] })) {
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
  }
  const win = { requestAnimationFrame: (cb: () => void) => setTimeout(cb, 1) } as unknown as Window
  const handler = createContentHandler({
    win,
    page,
    store: { get: async (k: StorageItemKey) => store.get(k) ?? null, set: async (k: StorageItemKey, v: unknown) => void store.set(k, v) },
  })
  return { handler, page, store, restore }
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
    const reply = await handler.handle({ kind: 'act', action: action(), resultKey: 'local:tandem.result.act1' })
    expect(page.act).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ actionId: 'act1' }), 1)
    expect(reply).toMatchObject({ actionId: 'act1', status: 'done', page: { title: 'Shop' } })
    expect(store.get('local:tandem.result.act1')).toEqual(reply)
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
})

import { describe, expect, it, vi } from 'vitest'
import { ContentError } from '../lib/executor/content-channel'
import { createGrantedFrames } from '../lib/executor/granted-frames'
import { unreachedFrames } from '../lib/executor/unreached-frames'
import type { ContentRequest } from '../lib/messages'

const FRAMES = [
  { frameId: 0, parentFrameId: -1, url: 'https://shop.test/checkout' },
  { frameId: 2, parentFrameId: 0, url: 'https://pay.example/card' },
  // Same origin as its parent frame: the pay frame's own script reads it.
  { frameId: 3, parentFrameId: 2, url: 'https://pay.example/cvc' },
  { frameId: 4, parentFrameId: 0, url: 'https://ads.example/banner' },
]

const TOP = {
  url: 'https://shop.test/checkout',
  title: 'Checkout',
  elementTree: '[0]<a href="/">Home\n[1]<button>Pay later',
  elements: [
    { index: 0, tag: 'a' },
    { index: 1, tag: 'button' },
  ],
  visibleTextSnippet: 'Checkout',
}
const PAY = {
  url: 'https://pay.example/card',
  title: 'Card',
  elementTree: '[0]<input type=text name=card>Card\n*[1]<button type=submit>Send',
  elements: [
    { index: 0, tag: 'input', attributes: { name: 'card' } },
    { index: 1, tag: 'button' },
  ],
  visibleTextSnippet: 'Pay by card',
}

function world(opts: { granted?: string[]; frameFails?: boolean } = {}) {
  const granted = opts.granted ?? ['https://shop.test/*', 'https://pay.example/*']
  let frames = FRAMES
  const permissions = { contains: vi.fn(async ({ origins }: { origins?: string[] }) => (origins ?? []).every((o) => granted.includes(o))) }
  const webNavigation = { getAllFrames: vi.fn(async () => frames) }
  const ask = vi.fn(async (_tab: number, request: { kind: string; action?: { actionId: string } }, _ms: number, frameId = 0): Promise<unknown> => {
    if (request.kind === 'observe') return frameId === 0 ? TOP : PAY
    if (request.kind === 'act') return { actionId: request.action!.actionId, status: 'done', errors: [], timing: {}, input: 'dom', page: frameId === 0 ? TOP : PAY }
    return { ready: true }
  })
  const ensure = vi.fn(async (_tab: number, frameId = 0) => {
    if (opts.frameFails && frameId !== 0) throw new ContentError('gone', 'Could not start Tandem in the page (Frame with ID 2 is showing error page)')
  })
  const frames_ = createGrantedFrames({ channel: { ask, ensure } as never, webNavigation: webNavigation as never, permissions: permissions as never, frameDeadlineMs: 500 })
  return { frames: frames_, ask, ensure, permissions, webNavigation, granted, setFrames: (f: typeof FRAMES) => (frames = f) }
}

const act = (params: Record<string, unknown>, target?: unknown) =>
  ({ kind: 'act', action: { actionId: 'a1', taskId: 't1', type: 'click', params, risk: 'low', ...(target ? { target } : {}) }, resultKey: 'local:tandem.result.a1' }) as unknown as Extract<ContentRequest, { kind: 'act' }>

describe('granted cross-origin frames', () => {
  it('lists a granted frame’s elements after the page’s, indexes going on and each marked with its frame; an ungranted frame is never asked', async () => {
    const w = world()
    const page = await w.frames.ask(7, { kind: 'observe' }, 15_000)
    expect(page.elementTree.split('\n')).toEqual([
      '[0]<a href="/">Home',
      '[1]<button>Pay later',
      '[2]<input frame="https://pay.example" type=text name=card>Card',
      '*[3]<button frame="https://pay.example" type=submit>Send',
    ])
    expect(page.elements!.map((e) => [e.index, e.attributes?.frame])).toEqual([
      [0, undefined],
      [1, undefined],
      [2, 'https://pay.example'],
      [3, 'https://pay.example'],
    ])
    expect(page.url).toBe(TOP.url)
    expect(page.visibleTextSnippet).toContain('Pay by card')
    const askedFrames = w.ask.mock.calls.map((c) => c[3] ?? 0)
    expect(askedFrames).toEqual([0, 2])
    expect(w.ensure.mock.calls.map((c) => c[1])).toEqual([2])
    // The observation names only what it left out: the ads frame, whose site nobody granted.
    const apis = { webNavigation: w.webNavigation as never, permissions: w.permissions as never }
    expect(await unreachedFrames(apis, 7, w.frames.reached(7))).toEqual([{ origin: 'https://ads.example', reached: false, why: 'not-granted' }])
  })

  it('runs a step on a frame’s element in that frame, its index as the frame counts it, and answers with the whole page', async () => {
    const w = world()
    await w.frames.ask(7, { kind: 'observe' }, 15_000)
    w.ask.mockClear()
    const outcome = await w.frames.ask(7, act({ index: 3 }, { by: 'index', value: 3, fingerprint: 'f3' }), 30_000)
    const [tab, request, , frameId] = w.ask.mock.calls[0]!
    const sent = (request as unknown as { action: { params: unknown; target: unknown } }).action
    expect([tab, frameId, sent.params, sent.target]).toEqual([7, 2, { index: 1 }, { by: 'index', value: 1, fingerprint: 'f3' }])
    expect(outcome.status).toBe('done')
    expect(outcome.input).toBe('dom')
    expect(outcome.page!.url).toBe(TOP.url)
    expect(outcome.page!.elementTree).toContain('[3]<button frame="https://pay.example"')
    // A step on the page's own element stays in the page.
    w.ask.mockClear()
    await w.frames.ask(7, act({}, { by: 'index', value: 1 }), 30_000)
    expect(w.ask.mock.calls[0]![3] ?? 0).toBe(0)
    expect((w.ask.mock.calls[0]![1] as unknown as { action: { target: unknown } }).action.target).toEqual({ by: 'index', value: 1 })
  })

  it('refuses a step in a frame whose site is no longer granted, or that shows another site now, without asking the frame', async () => {
    const w = world()
    await w.frames.ask(7, { kind: 'observe' }, 15_000)
    w.granted.splice(w.granted.indexOf('https://pay.example/*'), 1)
    w.ask.mockClear()
    const refused = await w.frames.ask(7, act({ text: 'x' }, { by: 'index', value: 2 }), 30_000)
    expect(refused.status).toBe('failed')
    expect(refused.errors[0]).toMatchObject({ code: 'PERMISSION_DENIED', origin: 'https://pay.example' })
    expect(w.ask).not.toHaveBeenCalled()

    const moved = world()
    await moved.frames.ask(7, { kind: 'observe' }, 15_000)
    moved.setFrames(FRAMES.map((f) => (f.frameId === 2 ? { ...f, url: 'https://evil.example/' } : f)))
    moved.ask.mockClear()
    expect((await moved.frames.ask(7, act({ index: 2 }), 30_000)).errors[0]!.code).toBe('PERMISSION_DENIED')
    expect(moved.ask).not.toHaveBeenCalled()
  })

  it('sends a step aimed past the page’s elements (where an ungranted frame sits) to the page, which refuses it', async () => {
    const w = world({ granted: ['https://shop.test/*'] })
    const page = await w.frames.ask(7, { kind: 'observe' }, 15_000)
    expect(page.elementTree).not.toContain('frame=')
    w.ask.mockClear()
    await w.frames.ask(7, act({ index: 2 }), 30_000)
    expect(w.ask.mock.calls[0]![3] ?? 0).toBe(0)
  })

  it('still routes a step to its frame after the worker was stopped between the reading and the step', async () => {
    const kept = new Map<number, unknown>()
    const store = { get: async (tabId: number) => kept.get(tabId), set: async (tabId: number, frames: unknown) => void kept.set(tabId, frames) }
    const before = world()
    const read = createGrantedFrames({ channel: { ask: before.ask, ensure: before.ensure } as never, webNavigation: before.webNavigation as never, permissions: before.permissions as never, store })
    await read.ask(7, { kind: 'observe' }, 15_000)
    const after = world()
    const restarted = createGrantedFrames({ channel: { ask: after.ask, ensure: after.ensure } as never, webNavigation: after.webNavigation as never, permissions: after.permissions as never, store })
    await restarted.ask(7, act({}, { by: 'index', value: 2 }), 30_000)
    expect(after.ask.mock.calls[0]![3]).toBe(2)
    expect((after.ask.mock.calls[0]![1] as unknown as { action: { target: unknown } }).action.target).toEqual({ by: 'index', value: 0 })
  })

  it('keeps what a reading reached only when it changed, not after every step on the same page', async () => {
    const kept = new Map<number, unknown>()
    const set = vi.fn(async (tabId: number, frames: unknown) => void kept.set(tabId, frames))
    const w = world()
    const frames = createGrantedFrames({ channel: { ask: w.ask, ensure: w.ensure } as never, webNavigation: w.webNavigation as never, permissions: w.permissions as never, store: { get: async (tabId: number) => kept.get(tabId), set } })
    await frames.ask(7, { kind: 'observe' }, 15_000)
    await frames.ask(7, { kind: 'observe' }, 15_000)
    expect(set).toHaveBeenCalledTimes(1)
    expect((kept.get(7) as { parts: unknown[] }).parts.length).toBeGreaterThan(0)
    // No frame's site is granted any more: what the next reading reaches changed, and is kept.
    w.permissions.contains.mockResolvedValue(false)
    await frames.ask(7, { kind: 'observe' }, 15_000)
    expect(set).toHaveBeenCalledTimes(2)
    expect(kept.get(7)).toEqual({ parts: [], failed: [] })
  })

  it('hides sensitive fields in the frames it read before a screenshot, and takes none when a frame cannot', async () => {
    const w = world()
    await w.frames.ask(7, { kind: 'observe' }, 15_000)
    w.ask.mockImplementation(async (_tab, request, _ms, frameId = 0) => (request.kind === 'mask' ? { masked: frameId === 0 || frameId === 2 } : { restored: true }))
    expect(await w.frames.ask(7, { kind: 'mask', restoreAfterMs: 3000 }, 2000)).toEqual({ masked: true })
    expect(w.ask.mock.calls.filter((c) => c[1].kind === 'mask').map((c) => c[3] ?? 0)).toEqual([0, 2])
    await w.frames.ask(7, { kind: 'unmask' }, 2000)
    expect(w.ask.mock.calls.filter((c) => c[1].kind === 'unmask').map((c) => c[3] ?? 0)).toEqual([0, 2])
    w.ask.mockImplementation(async (_tab, request, _ms, frameId = 0) => {
      if (frameId !== 0) throw new ContentError('gone', 'frame left')
      return request.kind === 'mask' ? { masked: true } : { restored: true }
    })
    expect(await w.frames.ask(7, { kind: 'mask', restoreAfterMs: 3000 }, 2000)).toEqual({ masked: false })
  })

  it('refuses a drag from a frame to outside it', async () => {
    const w = world()
    await w.frames.ask(7, { kind: 'observe' }, 15_000)
    w.ask.mockClear()
    const refused = await w.frames.ask(7, act({ to: 1 }, { by: 'index', value: 2 }), 30_000)
    expect(refused).toMatchObject({ status: 'failed', errors: [{ code: 'TARGET_NOT_INTERACTABLE' }] })
    expect(w.ask).not.toHaveBeenCalled()
  })

  it('keeps the page’s reading when a granted frame cannot be reached, and names that frame unreached (another origin)', async () => {
    const w = world({ frameFails: true })
    const page = await w.frames.ask(7, { kind: 'observe' }, 15_000)
    expect(page.elementTree).toBe(TOP.elementTree)
    expect(w.frames.failed(7)).toEqual(new Set(['https://pay.example']))
    const apis = { webNavigation: w.webNavigation as never, permissions: w.permissions as never }
    expect(await unreachedFrames(apis, 7, w.frames.reached(7))).toEqual([
      { origin: 'https://pay.example', reached: false, why: 'cross-origin' },
      { origin: 'https://ads.example', reached: false, why: 'not-granted' },
    ])
  })
})

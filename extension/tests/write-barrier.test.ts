import { beforeEach, describe, expect, it } from 'vitest'
import { fakeBrowser } from 'wxt/testing'
import { createWriteBarrier, type Hold } from '../lib/executor/write-barrier'

type Listener = (source: { tabId?: number; sessionId?: string }, method: string, params?: unknown) => void

/**
 * CDP Fetch as Chromium behaves (checked there): a paused request waits until continued or failed, and
 * `Fetch.disable` or detaching lets every request still paused go on. The fake records where each request ended.
 */
function fakeTab() {
  const listeners: Listener[] = []
  const commands: { sessionId?: string; method: string; params: Record<string, unknown> }[] = []
  const paused = new Map<string, { sessionId?: string }>()
  const outcome = new Map<string, 'sent' | 'failed'>()
  const enabled = new Set<string>()
  let next = 0
  const run = (sessionId: string | undefined, method: string, params: Record<string, unknown> = {}) => {
    commands.push({ ...(sessionId ? { sessionId } : {}), method, params })
    const key = sessionId ?? 'top'
    if (method === 'Fetch.enable') enabled.add(key)
    if (method === 'Fetch.disable') {
      enabled.delete(key)
      for (const [id, p] of paused) if ((p.sessionId ?? 'top') === key) (paused.delete(id), outcome.set(id, 'sent'))
    }
    if (method === 'Fetch.continueRequest' || method === 'Fetch.failRequest') {
      const id = String(params.requestId)
      if (!paused.delete(id)) throw new Error('Invalid InterceptionId.')
      outcome.set(id, method === 'Fetch.continueRequest' ? 'sent' : 'failed')
    }
    return Promise.resolve({})
  }
  const debuggee = {
    send: (_tabId: number, method: string, params?: Record<string, unknown>) => run(undefined, method, params),
    sendToSession: (_tabId: number, sessionId: string, method: string, params?: Record<string, unknown>) => run(sessionId, method, params),
  }
  return {
    debuggee,
    events: { addListener: (cb: Listener) => void listeners.push(cb) },
    commands,
    outcome,
    paused,
    enabled,
    /** The page sends a request; the browser pauses it when Fetch is on in that session, else it goes. */
    async request(method: string, url: string, extra: { resourceType?: string; sessionId?: string; postData?: string } = {}) {
      const id = `r${++next}`
      if (!enabled.has(extra.sessionId ?? 'top')) {
        outcome.set(id, 'sent')
        return id
      }
      paused.set(id, { sessionId: extra.sessionId })
      const params = { requestId: id, request: { method, url, headers: {}, postData: extra.postData }, resourceType: extra.resourceType ?? 'Fetch' }
      for (const l of listeners) l({ tabId: 7, ...(extra.sessionId ? { sessionId: extra.sessionId } : {}) }, 'Fetch.requestPaused', params)
      await new Promise((r) => setTimeout(r, 5))
      return id
    },
    socket(url: string) {
      for (const l of listeners) l({ tabId: 7 }, 'Network.webSocketCreated', { requestId: 'ws1', url })
    },
    attachChild(sessionId: string) {
      for (const l of listeners) l({ tabId: 7 }, 'Target.attachedToTarget', { sessionId, waitingForDebugger: true, targetInfo: { type: 'iframe' } })
      return new Promise((r) => setTimeout(r, 5))
    },
  }
}

const TURN_ON = ['Fetch.enable', 'Target.setAutoAttach', 'Network.enable', 'Runtime.addBinding', 'Runtime.enable']

function setup() {
  const tab = fakeTab()
  let holds: Hold[] = []
  const store = { get: async () => holds, set: async (next: Hold[]) => void (holds = next) }
  const barrier = createWriteBarrier({ debugger: tab.debuggee as never, events: tab.events, store })
  const step = { taskId: 't1', stepId: 'a1', pageUrl: 'https://shop.test/cart' }
  return { tab, barrier, step, stored: () => holds }
}

beforeEach(() => fakeBrowser.reset())

describe('the write barrier', () => {
  it('lets reads go and holds writes while an unapproved step runs, persisting what it holds', async () => {
    const { tab, barrier, step, stored } = setup()
    expect(await barrier.engage(7, step)).toBe(true)
    // Fetch for requests; Runtime for the socket wrapper, told to hold (Runtime.evaluate) once the binding is there.
    expect(tab.commands.map((c) => c.method)).toEqual([...TURN_ON, 'Runtime.evaluate'])
    const read = await tab.request('GET', 'https://shop.test/api/cart')
    const write = await tab.request('POST', 'https://shop.test/api/orders', { postData: '{"items":[1]}' })
    expect(tab.outcome.get(read)).toBe('sent')
    expect(tab.outcome.has(write)).toBe(false)
    expect(stored()).toMatchObject([{ id: write, taskId: 't1', stepId: 'a1', request: { method: 'POST', path: '/api/orders' } }])
    expect(await barrier.held('a1')).toHaveLength(1)
    expect(await barrier.held('t1')).toHaveLength(1)
  })

  it('sends the very request once released, and only then lets Fetch go', async () => {
    const { tab, barrier, step } = setup()
    await barrier.engage(7, step)
    const write = await tab.request('POST', 'https://shop.test/api/orders')
    await barrier.stepEnded(7)
    // Still held after the step: disabling Fetch now would send it.
    expect(tab.enabled.has('top')).toBe(true)
    const { released, gone } = await barrier.release([write])
    expect(released.map((h) => h.id)).toEqual([write])
    expect(gone).toEqual([])
    expect(tab.outcome.get(write)).toBe('sent')
    expect(tab.enabled.has('top')).toBe(false)
  })

  it('fails a refused write in the browser, before Fetch comes off', async () => {
    const { tab, barrier, step, stored } = setup()
    await barrier.engage(7, step)
    const write = await tab.request('DELETE', 'https://shop.test/api/drafts/7')
    await barrier.stepEnded(7)
    const refused = await barrier.refuse((h) => h.taskId === 't1')
    expect(refused.map((h) => h.id)).toEqual([write])
    expect(tab.outcome.get(write)).toBe('failed')
    const failAt = tab.commands.findIndex((c) => c.method === 'Fetch.failRequest')
    const disableAt = tab.commands.findIndex((c) => c.method === 'Fetch.disable')
    expect(failAt).toBeGreaterThanOrEqual(0)
    expect(disableAt).toBeGreaterThan(failAt)
    expect(stored()).toEqual([])
  })

  it('lets anything new go while a held write waits for the person (the page is theirs meanwhile)', async () => {
    const { tab, barrier, step } = setup()
    await barrier.engage(7, step)
    const held = await tab.request('POST', 'https://shop.test/api/orders')
    await barrier.stepEnded(7)
    const theirs = await tab.request('POST', 'https://shop.test/api/comments')
    expect(tab.outcome.get(theirs)).toBe('sent')
    expect(tab.outcome.has(held)).toBe(false)
  })

  it('takes over a tail that was handed on: what it held since is the new step’s, and nothing slipped between', async () => {
    const { tab, barrier, step } = setup()
    await barrier.engage(7, step)
    // The last step's tail is still on when the next step starts; a write its handlers sent late lands in between.
    const write = await tab.request('POST', 'https://shop.test/api/comments')
    await barrier.engage(7, { ...step, stepId: 'a2', inherit: 'a1' })
    expect(tab.outcome.has(write)).toBe(false)
    expect((await barrier.held('a2')).map((h) => h.id)).toEqual([write])
    expect(await barrier.held('a1')).toEqual([])
  })

  it('comes off at once after a step that held nothing', async () => {
    const { tab, barrier, step } = setup()
    await barrier.engage(7, step)
    await tab.request('GET', 'https://shop.test/')
    await barrier.stepEnded(7)
    expect(tab.enabled.has('top')).toBe(false)
    expect(await tab.request('POST', 'https://shop.test/api/orders').then((id) => tab.outcome.get(id))).toBe('sent')
  })

  it('stays on a moment after a step that held nothing, letting everything go, for the next step to take up', async () => {
    const tab = fakeTab()
    let attachment = 1
    const store = { get: async () => [] as Hold[], set: async () => undefined }
    const debuggee = { ...tab.debuggee, attachment: () => attachment }
    const barrier = createWriteBarrier({ debugger: debuggee as never, events: tab.events, store, lingerMs: 40 })
    const step = { taskId: 't1', stepId: 'a1', pageUrl: 'https://shop.test/cart' }
    await barrier.engage(7, step)
    await barrier.stepEnded(7)
    expect(await tab.request('POST', 'https://shop.test/api/orders').then((id) => tab.outcome.get(id))).toBe('sent')
    const sent = tab.commands.length
    // The next step, at once: nothing to turn on again (the page's sockets are only told to hold), and its writes are held.
    expect(await barrier.engage(7, { ...step, stepId: 'a2' })).toBe(true)
    expect(tab.commands.slice(sent).map((c) => c.method)).toEqual(['Runtime.evaluate'])
    const write = await tab.request('POST', 'https://shop.test/api/orders')
    expect(tab.outcome.has(write)).toBe(false)
    await barrier.refuse(() => true)
    await barrier.stepEnded(7)
    await new Promise((r) => setTimeout(r, 80))
    expect(tab.enabled.has('top')).toBe(false)
    // Let go of by the debugger meanwhile: turned on afresh, and the lingering barrier sends nothing after.
    await barrier.engage(7, { ...step, stepId: 'a3' })
    await barrier.stepEnded(7)
    const before = tab.commands.length
    attachment++
    await new Promise((r) => setTimeout(r, 80))
    await barrier.engage(7, { ...step, stepId: 'a4' })
    expect(tab.commands.slice(before).map((c) => c.method)).toEqual([...TURN_ON, 'Runtime.evaluate'])
  })

  it('comes off at once for a page the tab is about to load, and sends nothing where it was never on', async () => {
    const tab = fakeTab()
    const store = { get: async () => [] as Hold[], set: async () => undefined }
    const barrier = createWriteBarrier({ debugger: { ...tab.debuggee, attachment: () => 1 } as never, events: tab.events, store, lingerMs: 1000 })
    await barrier.rest(7)
    expect(tab.commands).toEqual([])
    await barrier.engage(7, { taskId: 't1', stepId: 'a1', pageUrl: 'https://shop.test/cart' })
    await barrier.stepEnded(7)
    expect(tab.enabled.has('top')).toBe(true)
    await barrier.rest(7)
    expect(tab.enabled.has('top')).toBe(false)
  })

  it('does not take a lingering barrier for on once the debugger was let go of in between', async () => {
    const tab = fakeTab()
    let attachment = 1
    const store = { get: async () => [] as Hold[], set: async () => undefined }
    const barrier = createWriteBarrier({ debugger: { ...tab.debuggee, attachment: () => attachment } as never, events: tab.events, store, lingerMs: 1000 })
    const step = { taskId: 't1', stepId: 'a1', pageUrl: 'https://shop.test/cart' }
    await barrier.engage(7, step)
    await barrier.stepEnded(7)
    attachment++
    const before = tab.commands.length
    await barrier.engage(7, { ...step, stepId: 'a2' })
    expect(tab.commands.slice(before).map((c) => c.method)).toEqual([...TURN_ON, 'Runtime.evaluate'])
  })

  it('drops third-party telemetry without asking, and says what it dropped', async () => {
    const { tab, barrier, step } = setup()
    await barrier.engage(7, step)
    const beacon = await tab.request('POST', 'https://www.google-analytics.com/g/collect?v=2', { resourceType: 'Ping' })
    expect(tab.outcome.get(beacon)).toBe('failed')
    expect(barrier.dropped(7)).toMatchObject([{ origin: 'https://www.google-analytics.com' }])
    expect(await barrier.held('a1')).toEqual([])
  })

  it('covers frames and workers in other processes: their sessions get Fetch before they run', async () => {
    const { tab, barrier, step } = setup()
    await barrier.engage(7, step)
    await tab.attachChild('child-1')
    const methods = tab.commands.filter((c) => c.sessionId === 'child-1').map((c) => c.method)
    expect(methods).toEqual(['Fetch.enable', 'Target.setAutoAttach', 'Runtime.addBinding', 'Runtime.enable', 'Network.enable', 'Runtime.runIfWaitingForDebugger'])
    const write = await tab.request('POST', 'https://pay.test/api/charge', { sessionId: 'child-1' })
    expect(await barrier.held('a1')).toMatchObject([{ id: write, sessionId: 'child-1' }])
    await barrier.release([write])
    expect(tab.outcome.get(write)).toBe('sent')
  })

  it('never holds what the page sends when no step runs (a worker that did not engage lets it go)', async () => {
    const { tab, barrier } = setup()
    // Fetch left on by a stopped worker.
    tab.enabled.add('top')
    const id = await tab.request('POST', 'https://shop.test/api/orders')
    expect(tab.outcome.get(id)).toBe('sent')
    expect(await barrier.held('t1')).toEqual([])
  })

  it('wakes a waiting step as soon as a write is held', async () => {
    const { tab, barrier, step } = setup()
    await barrier.engage(7, step)
    const started = Date.now()
    const waiting = barrier.waitForHold(7, 'a1', started + 5000)
    setTimeout(() => void tab.request('POST', 'https://shop.test/api/orders'), 20)
    expect(await waiting).toBe(true)
    expect(Date.now() - started).toBeLessThan(1000)
    expect(await barrier.waitForHold(7, 'other-step', Date.now() + 50)).toBe(false)
  })

  it('reports a held write the page no longer waits for as gone, not sent', async () => {
    const { tab, barrier, step } = setup()
    await barrier.engage(7, step)
    const write = await tab.request('POST', 'https://shop.test/api/orders')
    // The page navigated away: the browser canceled the paused request.
    tab.paused.delete(write)
    const { released, gone } = await barrier.release([write])
    expect(released).toEqual([])
    expect(gone.map((h) => h.id)).toEqual([write])
  })

  it('lets a write the person always allows on this site go on, and holds the same write elsewhere or of another kind', async () => {
    const { tab, barrier, step } = setup()
    const allow = [{ site: 'https://shop.test', method: 'POST', path: '/api/drafts/*/delete' }]
    await barrier.engage(7, { ...step, allow })
    const allowed = await tab.request('POST', 'https://shop.test/api/drafts/8/delete', { postData: '{"id":8}' })
    const otherKind = await tab.request('POST', 'https://shop.test/api/drafts/8/publish')
    const otherSite = await tab.request('POST', 'https://evil.test/api/drafts/8/delete')
    expect(tab.outcome.get(allowed)).toBe('sent')
    expect(tab.outcome.has(otherKind)).toBe(false)
    expect(tab.outcome.has(otherSite)).toBe(false)
    expect((await barrier.held('a1')).map((h) => h.id)).toEqual([otherKind, otherSite])
    // The step says what went unasked, for the audit.
    expect(barrier.allowed(7)).toMatchObject([{ method: 'POST', path: '/api/drafts/8/delete', fields: [{ name: 'id', value: '8' }] }])
  })

  it('lets a harmless write go on unasked with its kind, and holds that kind where the person always asks about it', async () => {
    const { tab, barrier, step } = setup()
    await barrier.engage(7, step)
    const cart = await tab.request('POST', 'https://shop.test/cart/change.js', { postData: '{"line":1,"quantity":3}' })
    expect(tab.outcome.get(cart)).toBe('sent')
    expect(barrier.harmless(7)).toMatchObject([{ kind: 'cart', request: { method: 'POST', path: '/cart/change.js' } }])
    expect(await barrier.held('a1')).toEqual([])
    await barrier.stepEnded(7)
    await barrier.engage(7, { ...step, stepId: 'a2', askAlways: [{ site: 'shop.test', kind: 'cart' }] })
    const asked = await tab.request('POST', 'https://shop.test/cart/change.js', { postData: '{"line":1,"quantity":4}' })
    expect(tab.outcome.has(asked)).toBe(false)
    expect((await barrier.held('a2')).map((h) => h.id)).toEqual([asked])
    expect(barrier.harmless(7)).toEqual([])
  })

  it('still drops telemetry the person allowed by mistake: a rule lets writes through, it does not turn a drop into a send', async () => {
    const { tab, barrier, step } = setup()
    await barrier.engage(7, { ...step, allow: [{ site: 'https://www.google-analytics.com', method: 'POST', path: '/g/collect' }] })
    const beacon = await tab.request('POST', 'https://www.google-analytics.com/g/collect?v=2', { resourceType: 'Ping' })
    expect(tab.outcome.get(beacon)).toBe('failed')
  })

  it('forgets the rules of an earlier step: each step holds by the rules it came with', async () => {
    const { tab, barrier, step } = setup()
    await barrier.engage(7, { ...step, allow: [{ site: 'https://shop.test', method: 'POST', path: '/api/orders' }] })
    expect(tab.outcome.get(await tab.request('POST', 'https://shop.test/api/orders'))).toBe('sent')
    await barrier.stepEnded(7)
    await barrier.engage(7, { ...step, stepId: 'a2' })
    const held = await tab.request('POST', 'https://shop.test/api/orders')
    expect(tab.outcome.has(held)).toBe(false)
    expect(await barrier.held('a2')).toHaveLength(1)
  })

  it('names the WebSocket a step tried to open (the session rule stops it; CDP cannot pause it)', async () => {
    const { tab, barrier, step } = setup()
    await barrier.engage(7, step)
    tab.socket('wss://shop.test/live')
    expect(barrier.sockets(7)).toMatchObject([{ kind: 'websocket', origin: 'wss://shop.test', path: '/live' }])
    await barrier.stepEnded(7)
    expect(tab.commands.at(-1)?.method).toBe('Network.disable')
  })
})

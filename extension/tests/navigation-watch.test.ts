import { beforeEach, describe, expect, it, vi } from 'vitest'
import { watchNavigation } from '../lib/executor/navigation-watch'
import { runAction } from '../lib/executor/run-action'
import { EMPTY_STATE, type ExecutorState } from '../lib/executor/state'
import { action } from './fakes'
import { createTabWorld, runDepsFor, type TabWorld } from './tab-world'

type Cb = (d: any) => void
function fakeEvents() {
  const listeners = { error: new Set<Cb>(), completed: new Set<Cb>() }
  const event = (set: Set<Cb>) => ({ addListener: (cb: Cb) => void set.add(cb), removeListener: (cb: Cb) => void set.delete(cb) })
  return {
    apis: { webNavigation: { onErrorOccurred: event(listeners.error) }, webRequest: { onCompleted: event(listeners.completed) } },
    error: (d: { tabId: number; frameId: number; url: string; error: string }) => listeners.error.forEach((cb) => cb(d)),
    completed: (d: { tabId: number; type: string; url: string; statusCode: number }) => listeners.completed.forEach((cb) => cb(d)),
    listening: () => listeners.error.size + listeners.completed.size,
  }
}

describe('watchNavigation', () => {
  it.each([
    ['net::ERR_NAME_NOT_RESOLVED', 'dns'],
    ['net::ERR_CONNECTION_REFUSED', 'refused'],
    ['net::ERR_CONNECTION_TIMED_OUT', 'timeout'],
    ['net::ERR_SSL_PROTOCOL_ERROR', 'other'],
  ])('reads %s on the main frame as %s', async (error, reason) => {
    const events = fakeEvents()
    const watch = watchNavigation(events.apis)
    events.error({ tabId: 4, frameId: 1, url: 'http://a.example/frame', error })
    expect(await watch.failure(4)).toBeNull()
    events.error({ tabId: 4, frameId: 0, url: 'http://a.example/', error })
    expect(await watch.failure(4)).toEqual({ reason, url: 'http://a.example/', netError: error })
    expect(await watch.failure(5)).toBeNull()
    watch.stop()
    expect(events.listening()).toBe(0)
  })

  it('takes an aborted or client-blocked load as no failure of the site', async () => {
    const events = fakeEvents()
    const watch = watchNavigation(events.apis)
    events.error({ tabId: 4, frameId: 0, url: 'http://a.example/', error: 'net::ERR_ABORTED' })
    events.error({ tabId: 4, frameId: 0, url: 'http://a.example/', error: 'net::ERR_BLOCKED_BY_CLIENT' })
    expect(await watch.failure(4)).toBeNull()
  })

  it('reads an HTTP error status of the page (not of its images) as http-status', async () => {
    const events = fakeEvents()
    const watch = watchNavigation(events.apis)
    events.completed({ tabId: 4, type: 'image', url: 'http://a.example/x.png', statusCode: 404 })
    events.completed({ tabId: 4, type: 'main_frame', url: 'http://a.example/', statusCode: 200 })
    expect(await watch.failure(4)).toBeNull()
    events.completed({ tabId: 4, type: 'main_frame', url: 'http://a.example/gone', statusCode: 404 })
    expect(await watch.failure(4)).toEqual({ reason: 'http-status', url: 'http://a.example/gone', status: 404 })
  })

  it('waits a moment for a report that comes as the error page settles', async () => {
    const events = fakeEvents()
    const watch = watchNavigation(events.apis)
    setTimeout(() => events.error({ tabId: 4, frameId: 0, url: 'http://a.example/', error: 'net::ERR_CONNECTION_REFUSED' }), 20)
    expect(await watch.failure(4, 2000)).toMatchObject({ reason: 'refused' })
    const started = Date.now()
    expect(await watch.failure(7, 50)).toBeNull()
    expect(Date.now() - started).toBeLessThan(1000)
  })
})

describe('a navigate step whose page does not come up', () => {
  let world: TabWorld
  let state: ExecutorState
  beforeEach(() => {
    world = createTabWorld({ granted: ['http://127.0.0.1'] })
    state = structuredClone(EMPTY_STATE)
  })

  it('fails itself with NAVIGATION_FAILED and what the browser said, not "done" with an unreadable page', async () => {
    const events = fakeEvents()
    // The browser's error page cannot be scripted; its network error arrives as it settles.
    world.content.ensure.mockImplementation(async (tabId: number) => {
      events.error({ tabId, frameId: 0, url: 'http://127.0.0.1:9/', error: 'net::ERR_CONNECTION_REFUSED' })
      throw new Error('Frame with ID 0 is showing error page')
    })
    const deps = runDepsFor(world, state, { serverUrl: 'http://127.0.0.1:3000', watchNavigation: () => watchNavigation(events.apis) })
    const obs = await runAction(deps, action({ type: 'navigate', target: undefined, params: { url: 'http://127.0.0.1:9/' } }))
    expect(obs.status).toBe('failed')
    expect(obs.errors).toEqual([
      {
        code: 'NAVIGATION_FAILED',
        message: '127.0.0.1:9 refused the connection: nothing answers at that address. The site may be down, or the port wrong.',
        details: { reason: 'refused', url: 'http://127.0.0.1:9/', netError: 'net::ERR_CONNECTION_REFUSED' },
      },
    ])
    expect(events.listening()).toBe(0)
  })

  it('fails on an HTTP error page, and still describes the page the site sent', async () => {
    const events = fakeEvents()
    world.content.ensure.mockImplementation(async (tabId: number) => {
      events.completed({ tabId, type: 'main_frame', url: 'http://127.0.0.1:4000/missing', statusCode: 404 })
    })
    const deps = runDepsFor(world, state, { serverUrl: 'http://127.0.0.1:3000', watchNavigation: () => watchNavigation(events.apis) })
    const obs = await runAction(deps, action({ type: 'navigate', target: undefined, params: { url: 'http://127.0.0.1:4000/missing' } }))
    expect(obs.status).toBe('failed')
    expect(obs.errors).toMatchObject([{ code: 'NAVIGATION_FAILED', details: { reason: 'http-status', status: 404 } }])
    expect(obs.errors![0]!.message).toContain('HTTP 404 (not found)')
  })

  it('refuses words that are not an address before any tab is opened', async () => {
    const deps = runDepsFor(world, state, { serverUrl: 'http://127.0.0.1:3000' })
    const created = vi.spyOn(deps.tabs, 'create')
    const obs = await runAction(deps, action({ type: 'navigate', target: undefined, params: { url: 'not a url' } }))
    expect(obs.errors).toMatchObject([{ code: 'NAVIGATION_FAILED', details: { reason: 'invalid-url', url: 'not a url', problem: 'spaces' } }])
    expect(obs.errors![0]!.message).toContain('such as example.com')
    expect(created).not.toHaveBeenCalled()
  })
})

import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Action } from '#protocol'
import { createNavigationGuard, type NavigationGuard } from '../lib/executor/navigation-guard'
import { runAction, type RunDeps } from '../lib/executor/run-action'
import { EMPTY_STATE, type ExecutorState } from '../lib/executor/state'
import { action } from './fakes'
import { blocked, fakeGuardApis } from './guard-fakes'
import { createTabWorld, runDepsFor, type TabWorld } from './tab-world'

const SERVER = 'http://127.0.0.1:3000'
const EVIL = 'http://evil.test:81'
let world: TabWorld
let state: ExecutorState
let fake: ReturnType<typeof fakeGuardApis>
let guard: NavigationGuard

beforeEach(() => {
  world = createTabWorld({ granted: ['http://shop.example', 'http://127.0.0.1'] })
  state = structuredClone(EMPTY_STATE)
  fake = fakeGuardApis(['http://shop.example/*', 'http://127.0.0.1/*'])
  guard = createNavigationGuard(fake.apis)
})

function deps(): RunDeps {
  return runDepsFor(world, state, { serverUrl: SERVER, guard, navigationGraceMs: 400 })
}

const run = (a: Partial<Action>) => runAction(deps(), action(a))

/** What the browser does when the guard's rule stops a navigation: the tab shows the refused address as an error page. */
function blockLater(tabId: number, url: string, afterMs: number) {
  setTimeout(() => {
    fake.nav.onBeforeNavigate.fire({ tabId, frameId: 0 })
    void world.tabs.update(tabId, { url })
    fake.nav.onErrorOccurred.fire(blocked(tabId, url))
  }, afterMs)
}

describe('runAction under the navigation guard', () => {
  it('holds the task tab for the page it acts on before the page is asked to act', async () => {
    const tab = world.open('http://shop.example/cart')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    let heldWhenActing: unknown[] = []
    world.onAct(async (a, t) => {
      heldWhenActing = fake.rules().flatMap((r) => r.condition.tabIds ?? [])
      return { actionId: a.actionId, status: 'done', errors: [], page: { url: t.url, title: 'Cart', elementTree: '', visibleTextSnippet: '' }, timing: {} }
    })
    const obs = await run({ type: 'click' })
    expect(obs.status).toBe('done')
    expect(heldWhenActing).toEqual([tab.id])
  })

  it('refuses a click whose handler sends the page to a site nobody granted a moment later, naming that site, and puts the page back', async () => {
    const tab = world.open('http://shop.example/track')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    world.onAct(async (a, t) => {
      // The handler answers at once and leaves on a timer, as setTimeout(() => location = …, 200) does.
      blockLater(t.id, `${EVIL}/collect?via=timer`, 200)
      return { actionId: a.actionId, status: 'done', errors: [], page: { url: t.url, title: 'Track', elementTree: '', visibleTextSnippet: '' }, timing: {} }
    })
    const obs = await run({ type: 'click' })
    expect(obs.status).toBe('failed')
    expect(obs.errors![0]).toMatchObject({ code: 'PERMISSION_DENIED', origin: EVIL })
    expect(obs.errors!.filter((e) => e.code === 'PERMISSION_DENIED')).toHaveLength(1)
    // Not left on the browser's error page at the refused address: the step's own page is loaded again.
    expect((await world.tabs.get(tab.id)).url).toBe('http://shop.example/track')
    expect(obs.url).toBe('http://shop.example/track')
    expect(obs.timing).toMatchObject({ restored: 1 })
  })

  it('refuses a navigation that redirects to a site nobody granted', async () => {
    const tab = world.open('http://shop.example/')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    const update = world.tabs.update.getMockImplementation()!
    world.tabs.update.mockImplementationOnce(async (id: number, props: { url?: string }) => {
      const result = await update(id, props)
      blockLater(id, `${EVIL}/landing`, 1)
      return result
    })
    const obs = await run({ type: 'navigate', target: undefined, params: { url: 'http://shop.example/go' } })
    expect(obs.status).toBe('failed')
    expect(obs.errors![0]).toMatchObject({ code: 'PERMISSION_DENIED', origin: EVIL })
  })

  it('does not wait for a navigation after actions that fire no handler', async () => {
    const tab = world.open('http://shop.example/')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    const quiet = vi.spyOn(guard, 'quiet')
    await run({ type: 'extract', target: undefined, params: { instruction: 'price' } })
    expect(quiet).not.toHaveBeenCalled()
    await run({ actionId: 'act2', type: 'click' })
    expect(quiet).toHaveBeenCalledTimes(1)
  })
})

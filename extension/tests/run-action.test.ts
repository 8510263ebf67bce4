import { beforeEach, describe, expect, it } from 'vitest'
import { Observation, type Action } from '#protocol'
import { runAction, type RunDeps } from '../lib/executor/run-action'
import { EMPTY_STATE, type ExecutorState } from '../lib/executor/state'
import { action } from './fakes'
import { createTabWorld, runDepsFor, type TabWorld } from './tab-world'

const SERVER = 'http://127.0.0.1:3000'
let world: TabWorld
let state: ExecutorState
let stored: Map<string, unknown>
/** What reached the page or the tab, in order, with "touching" where the executor was told. */
let touches: string[]

beforeEach(() => {
  world = createTabWorld({ granted: ['http://shop.example', 'http://127.0.0.1'] })
  state = structuredClone(EMPTY_STATE)
  stored = new Map()
  touches = []
})

function deps(): RunDeps {
  return runDepsFor(world, state, {
    serverUrl: SERVER,
    touching: async () => void touches.push('touching'),
    readResult: async (id) => (stored.get(id) as never) ?? null,
  })
}

const run = (a: Partial<Action>) => runAction(deps(), action(a))
const errorCodes = (obs: { errors?: { code: string }[] }) => obs.errors?.map((e) => e.code)

describe('runAction', () => {
  it('opens a task tab for the first navigate, remembers it, and observes the loaded page', async () => {
    const obs = await run({ type: 'navigate', target: undefined, params: { url: 'http://shop.example/search' } })
    expect(obs).toMatchObject({ status: 'done', url: 'http://shop.example/search', title: 'search' })
    expect(obs.elementTree).toContain('[0]')
    expect(world.all()).toHaveLength(1)
    expect(state.tasks.task1.tabId).toBe(world.all()[0].id)
    expect(world.shots).toEqual(['observation@http://shop.example/search'])
  })

  it('navigates the same task tab afterwards', async () => {
    await run({ type: 'navigate', target: undefined, params: { url: 'http://shop.example/' } })
    const obs = await run({ actionId: 'act2', type: 'navigate', target: undefined, params: { url: 'http://shop.example/cart' } })
    expect(obs.url).toBe('http://shop.example/cart')
    expect(world.all()).toHaveLength(1)
  })

  it('says it is touching right before the tab or the page gets the action, and never for a look at the page', async () => {
    const acts = () => world.content.ask.mock.calls.filter(([, request]) => request.kind === 'act').length
    const when = { ...deps(), touching: async () => void touches.push(`tabs=${world.all().length} acts=${acts()}`) }
    await runAction(when, action({ type: 'navigate', target: undefined, params: { url: 'http://shop.example/' } }))
    expect(touches).toEqual(['tabs=0 acts=0'])
    await runAction(when, action({ actionId: 'act2', type: 'observe', target: undefined }))
    await runAction(when, action({ actionId: 'act3', type: 'screenshot', target: undefined }))
    expect(touches).toHaveLength(1)
    await runAction(when, action({ actionId: 'act4' }))
    expect(touches).toEqual(['tabs=0 acts=0', 'tabs=1 acts=0'])
    expect(acts()).toBe(1)
  })

  it('pictures the element a card is about: found, named and marked on the screenshot; unmarked when not found', async () => {
    await run({ type: 'navigate', target: undefined, params: { url: 'http://shop.example/' } })
    const obs = await run({ actionId: 'pic', type: 'screenshot', target: { by: 'selector', value: '#send' } })
    expect(obs).toMatchObject({ status: 'done', targetName: 'Send message' })
    // Located before the page is read (the reading and the picture are of the page with the element in view), and
    // measured again once the picture is taken: the mark is where it was then.
    expect(obs.artifacts).toEqual([expect.objectContaining({ label: 'screenshot', mark: { x: 0.25, y: 0.51, w: 0.2, h: 0.05 } })])
    const kinds = world.content.ask.mock.calls.map(([, request]) => request.kind)
    expect(kinds.slice(kinds.indexOf('locate'))).toEqual(['locate', 'observe', 'locate'])
    expect(world.shots.at(-1)).toBe('screenshot@http://shop.example/')
    const missing = await run({ actionId: 'pic2', type: 'screenshot', target: { by: 'selector', value: '#gone' } })
    expect(missing.status).toBe('done')
    expect(missing.targetName).toBeUndefined()
    expect(missing.artifacts?.[0]).not.toHaveProperty('mark')
  })

  it('refuses a high-risk action without the person’s approval before touching any tab', async () => {
    const obs = await run({ risk: 'high', requiresConfirmation: true })
    expect(obs.status).toBe('failed')
    expect(errorCodes(obs)).toEqual(['CONFIRMATION_REQUIRED'])
    expect(world.tabs.query).not.toHaveBeenCalled()
    expect(world.content.ask).not.toHaveBeenCalled()
  })

  it('runs an approved high-risk action with screenshots before and after', async () => {
    const tab = world.open('http://shop.example/checkout')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    const obs = await run({ risk: 'high', requiresConfirmation: true, confirmation: { approved: true, at: new Date().toISOString(), by: 'panel' } })
    expect(obs.status).toBe('done')
    expect(obs.artifacts?.map((a) => a.label)).toEqual(['before', 'after'])
    expect(world.shots).toEqual(['before@http://shop.example/checkout', 'after@http://shop.example/checkout'])
  })

  it('passes the server\'s redaction settings to every screenshot it takes for the action', async () => {
    const tab = world.open('http://shop.example/checkout')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    const redact = { emails: true, phones: true }
    await run({ risk: 'high', requiresConfirmation: true, confirmation: { approved: true, at: new Date().toISOString(), by: 'panel' }, redact })
    expect(world.screenshots.capture.mock.calls.map((call) => [call[1], call[2]])).toEqual([
      ['before', redact],
      ['after', redact],
    ])
  })

  it('takes no screenshots around a low-risk action', async () => {
    const tab = world.open('http://shop.example/')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    const obs = await run({})
    expect(obs.status).toBe('done')
    expect(obs.artifacts).toBeUndefined()
  })

  it('tells the page which sites the person granted, so it can refuse a link or form that leaves for another', async () => {
    const tab = world.open('http://shop.example/')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    await run({})
    const act = world.content.ask.mock.calls.find(([, request]) => request.kind === 'act')
    expect(act?.[1]).toMatchObject({ kind: 'act', sites: ['http://shop.example/*', 'http://127.0.0.1/*'] })
  })

  it('refuses an action aimed at another tab (INVALID_TASK_TAB)', async () => {
    const tab = world.open('http://shop.example/')
    const other = world.open('http://shop.example/other')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    const obs = await run({ params: { tabId: other.id } })
    expect(errorCodes(obs)).toEqual(['INVALID_TASK_TAB'])
    expect(world.content.ask).not.toHaveBeenCalled()
  })

  it('reports TASK_TAB_CLOSED once the task tab is gone, and does not adopt another tab', async () => {
    const tab = world.open('http://shop.example/')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    world.close(tab.id)
    world.open('http://shop.example/other')
    const obs = await run({})
    expect(errorCodes(obs)).toEqual(['TASK_TAB_CLOSED'])
    expect(world.content.ask).not.toHaveBeenCalled()
  })

  it('adopts the active tab for a task that starts without a URL', async () => {
    const tab = world.open('http://shop.example/')
    const obs = await run({ type: 'observe', target: undefined })
    expect(obs.status).toBe('done')
    expect(state.tasks.task1.tabId).toBe(tab.id)
  })

  it('refuses a site the person has not granted (PERMISSION_DENIED), before opening anything', async () => {
    const obs = await run({ type: 'navigate', target: undefined, params: { url: 'http://shop.test/' } })
    expect(obs).toMatchObject({ status: 'failed', url: 'http://shop.test/' })
    expect(errorCodes(obs)).toEqual(['PERMISSION_DENIED'])
    expect(world.all()).toHaveLength(0)
  })

  it('refuses to act on a page of a site that is not granted', async () => {
    const tab = world.open('http://other.example/')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    const obs = await run({})
    expect(errorCodes(obs)).toEqual(['PERMISSION_DENIED'])
    expect(world.content.ensure).not.toHaveBeenCalled()
  })

  it('starts its script in a page once: a page that runs it already is only asked, a new document is started again', async () => {
    const tab = world.open('http://shop.example/')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    await run({})
    await run({ actionId: 'act2', type: 'observe', target: undefined })
    expect(world.content.ensure).toHaveBeenCalledTimes(1)
    await run({ actionId: 'act3', type: 'navigate', target: undefined, params: { url: 'http://shop.example/cart' } })
    expect(world.content.ensure).toHaveBeenCalledTimes(2)
  })

  it("never acts on the server's own pages, under any loopback name", async () => {
    for (const url of ['http://127.0.0.1:3000/console', 'http://localhost:3000/']) {
      const obs = await run({ type: 'navigate', target: undefined, params: { url } })
      expect(errorCodes(obs)).toEqual(['INVALID_TASK_TAB'])
    }
    // Another loopback port is just a site (granted here).
    const obs = await run({ type: 'navigate', target: undefined, params: { url: 'http://127.0.0.1:4000/' } })
    expect(obs.status).toBe('done')
  })

  it('never acts on browser or extension pages', async () => {
    world.open('chrome://settings/')
    expect(errorCodes(await run({ type: 'observe', target: undefined }))).toEqual(['INVALID_TASK_TAB'])
    // Not a web address at all: the navigate step fails for what it is, before any tab is touched.
    const obs = await run({ type: 'navigate', target: undefined, params: { url: 'chrome-extension://abc/sidepanel.html' } })
    expect(obs.errors).toMatchObject([{ code: 'NAVIGATION_FAILED', details: { reason: 'invalid-url', problem: 'scheme' } }])
  })

  it('takes a click that leaves the page as done, and describes the page it led to', async () => {
    const tab = world.open('http://shop.example/cart')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    world.onAct(async () => 'navigate-away')
    const obs = await run({ type: 'click' })
    expect(obs).toMatchObject({ status: 'done', url: 'http://shop.example/next' })
    expect(obs.timing).toMatchObject({ navigated: 1 })
  })

  it('describes the page a form submission leads to, with the after-screenshot taken there', async () => {
    const tab = world.open('http://shop.example/checkout')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    world.onAct(async (a, t) => {
      const answer = { actionId: a.actionId, status: 'done' as const, errors: [], page: { url: t.url, title: 'Checkout', elementTree: '', visibleTextSnippet: '' }, timing: {} }
      // The submit answers first; the browser starts leaving right after.
      await world.tabs.update(t.id, { url: 'http://shop.example/thanks' })
      return answer
    })
    const confirmation = { approved: true as const, at: new Date().toISOString(), by: 'panel' }
    const obs = await run({ risk: 'high', requiresConfirmation: true, confirmation })
    expect(obs).toMatchObject({ status: 'done', url: 'http://shop.example/thanks', title: 'thanks' })
    expect(world.shots).toEqual(['before@http://shop.example/checkout', 'after@http://shop.example/thanks'])
  })

  it('reports NAVIGATION_IN_PROGRESS when the page left in the middle of a wait', async () => {
    const tab = world.open('http://shop.example/leaving')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    world.onAct(async () => 'navigate-away')
    const obs = await run({ type: 'waitFor', target: undefined, params: { text: 'Arrived' } })
    expect(obs.status).toBe('failed')
    expect(errorCodes(obs)).toEqual(['NAVIGATION_IN_PROGRESS'])
    expect(obs.url).toBe('http://shop.example/next')
  })

  it('uses the result the page stored when the answer itself got lost', async () => {
    const tab = world.open('http://shop.example/')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    stored.set('act1', { actionId: 'act1', status: 'done', errors: [], extracted: { price: 3 }, timing: {} })
    world.onAct(async () => {
      throw new (await import('../lib/executor/content-channel')).ContentError('gone', 'port closed')
    })
    const obs = await run({ type: 'extract', target: undefined, params: { instruction: 'price' } })
    expect(obs).toMatchObject({ status: 'done', extracted: { price: 3 } })
  })

  it('calls an action whose page never answers TIMEOUT with an unknown outcome', async () => {
    const tab = world.open('http://shop.example/')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    world.onAct(async () => 'hang')
    const obs = await run({})
    expect(errorCodes(obs)).toEqual(['TIMEOUT'])
    expect(obs.errors![0].message).toMatch(/unknown/)
  })

  it('passes the page’s own failure codes through (a stale index stays stale)', async () => {
    const tab = world.open('http://shop.example/')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    world.onAct(async (a, t) => ({
      actionId: a.actionId,
      status: 'failed',
      errors: [{ code: 'TARGET_STALE', message: 'Element [3] changed since the observation.' }],
      page: { url: t.url, title: t.title, elementTree: '', visibleTextSnippet: '' },
      timing: {},
    }))
    const obs = await run({})
    expect(obs.status).toBe('failed')
    expect(errorCodes(obs)).toEqual(['TARGET_STALE'])
  })

  it('says in the observation how long the page took to settle after the action', async () => {
    const tab = world.open('http://shop.example/')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    world.onAct(async (a, t) => ({
      actionId: a.actionId,
      status: 'done',
      errors: [],
      page: { url: t.url, title: t.title, elementTree: '', visibleTextSnippet: '' },
      settle: { ms: 240, quiet: true },
      timing: { actMs: 2, settleMs: 240 },
    }))
    const obs = await run({})
    expect(obs).toMatchObject({ status: 'done', settle: { ms: 240, quiet: true } })
    expect(Observation.parse(obs).settle).toEqual({ ms: 240, quiet: true })
  })

  it('goes back in the task tab through the tabs API', async () => {
    await run({ type: 'navigate', target: undefined, params: { url: 'http://shop.example/a' } })
    await run({ actionId: 'act2', type: 'navigate', target: undefined, params: { url: 'http://shop.example/b' } })
    const obs = await run({ actionId: 'act3', type: 'back', target: undefined })
    expect(obs).toMatchObject({ status: 'done', url: 'http://shop.example/a' })
  })

  it('waits for a slow page before observing it, and gives up with PAGE_PREP_FAILED', async () => {
    world = createTabWorld({ granted: ['http://shop.example'], loadMs: 300 })
    const first = await run({ type: 'navigate', target: undefined, params: { url: 'http://shop.example/slow' } })
    expect(first).toMatchObject({ status: 'done', title: 'slow' })
    expect(first.timing!.loadedMs).toBeGreaterThanOrEqual(250)

    world = createTabWorld({ granted: ['http://shop.example'], loadMs: 60_000 })
    const tab = world.open('http://shop.example/')
    state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
    await world.tabs.update(tab.id, { url: 'http://shop.example/never' })
    const obs = await runAction({ ...deps(), loadTimeoutMs: 300 }, action({ type: 'observe', target: undefined }))
    expect(errorCodes(obs)).toEqual(['PAGE_PREP_FAILED'])
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Action, AuditEvent } from '#protocol'
import { agent } from '../support/agent'
import { answer, goalOf, startFakeLlm, type FakeLlm, type FakeRequest } from '../support/fake-llm'
import { startServer, type TestServer } from '../support/server'

// The model: keyed by a tag in the goal.
function model(r: FakeRequest): string {
  const goal = goalOf(r)
  if (goal.includes('[words]')) {
    if (r.text.includes('NAVIGATION_FAILED')) return answer([{ type: 'done', success: false, text: 'no such address' }])
    return answer([{ type: 'navigate', url: 'not a url' }])
  }
  if (goal.includes('[bare]')) {
    if (r.text.includes('navigate: done')) return answer([{ type: 'done', success: true, text: 'opened' }])
    return answer([{ type: 'navigate', url: 'shop.example/items' }])
  }
  // A page whose link leads to the refused site, and a model that keeps clicking it.
  if (goal.includes('[clicky]')) return answer([{ type: 'click', index: 0 }])
  // A model that will not take no for an answer: it goes for the refused site every time.
  if (goal.includes('[stubborn]')) return answer([{ type: 'navigate', url: 'https://evil.example/collect' }])
  if (goal.includes('[polite]')) {
    if (r.text.includes('did not allow https://evil.example')) return answer([{ type: 'done', success: true, text: 'went on without it' }])
    return answer([{ type: 'navigate', url: 'https://evil.example/collect' }])
  }
  return answer([{ type: 'done', success: false, text: 'no rule' }])
}

let llm: FakeLlm
let server: TestServer
let a: ReturnType<typeof agent>
beforeAll(async () => {
  llm = await startFakeLlm(model)
  server = await startServer({ env: { TANDEM_LLM_BASE_URL: llm.url, TANDEM_LLM_MODEL: 'fake-model', TANDEM_LLM_TIMEOUT_MS: '2000' } })
  a = agent(server)
})
afterAll(async () => {
  await server?.close()
  await llm?.close()
})

const promptsFor = (tag: string) => llm.requests.filter((r) => goalOf(r).includes(tag))
const eventsOf = async (taskId: string) => (await server.api('GET', `/api/audit/${taskId}`)).body.data.events as AuditEvent[]
const denied = (site: string) => ({
  status: 'failed' as const,
  url: 'http://shop.example/',
  errors: [{ code: 'PERMISSION_DENIED' as const, message: `Tandem may not act on ${site} yet.`, origin: site }],
})

describe('POST /api/agent/start checks the start address as the panel does', () => {
  it.each([['不是网址'], ['https://xn--ihq17txpmlpy'], ['not a url'], ['javascript:alert(1)'], ['file:///etc/passwd'], ['http://intranet/']])(
    'refuses %j with BAD_REQUEST and what an address looks like',
    async (startUrl) => {
      const before = (await server.api('GET', '/api/agent/tasks')).body
      const res = await server.api('POST', '/api/agent/start', { goal: 'g', startUrl })
      expect(res.status).toBe(400)
      expect(res.body.ok).toBe(false)
      expect(res.body.error.code).toBe('BAD_REQUEST')
      expect(res.body.error.message).toMatch(/^The request is not valid: startUrl must be a web address .*such as example\.com, localhost:3000 or https:\/\/example\.com\/page\.$/)
      expect(res.body.error.details).toEqual([expect.objectContaining({ path: 'startUrl' })])
      // The input itself is never echoed back.
      expect(JSON.stringify(res.body)).not.toContain(startUrl)
      expect((await server.api('GET', '/api/agent/tasks')).body).toEqual(before)
    },
  )

  it.each([
    ['localhost:3000', 'http://localhost:3000/'],
    ['127.0.0.1:8080/x', 'http://127.0.0.1:8080/x'],
    ['example.com', 'https://example.com/'],
    ['https://例子.测试/', 'https://xn--fsqu00a.xn--0zwm56d/'],
  ])('accepts %j and opens %s', async (startUrl, opened) => {
    const { taskId } = await a.start({ goal: 'open it', script: [{ type: 'observe' }], startUrl })
    expect((await a.status(taskId)).task.startUrl).toBe(opened)
    expect(await a.nextAction(taskId)).toMatchObject({ type: 'navigate', params: { url: opened } })
    await a.command('cancel', taskId)
  })
})

describe('navigate to words that are no address', () => {
  it('fails the script step before anything is sent to the browser, saying what an address looks like', async () => {
    const { taskId } = await a.start({ goal: 'script', script: [{ type: 'navigate', url: 'not a url' }, { type: 'observe' }] })
    const view = await a.waitFor(taskId, 'FAILED')
    expect(view.steps).toHaveLength(1)
    expect(view.steps[0]).toMatchObject({ type: 'navigate', outcome: 'failed' })
    expect(view.steps[0]!.errors).toEqual([
      {
        code: 'NAVIGATION_FAILED',
        message: '“not a url” cannot be opened. A web address has no spaces. Enter one such as example.com, localhost:3000 or https://example.com/page.',
        details: { reason: 'invalid-url', url: 'not a url', problem: 'spaces' },
      },
    ])
    expect(view.task.error?.code).toBe('NAVIGATION_FAILED')
    expect((await a.next(taskId)).action).toBeNull()
    expect((await eventsOf(taskId)).filter((e) => e.type === 'action.dispatched')).toEqual([])
  })

  it('tells the planner, which decides again on the failure', async () => {
    const { taskId } = await a.start({ goal: '[words] open the page', startUrl: 'http://shop.example/' })
    await a.report(await a.nextAction(taskId), { url: 'http://shop.example/' })
    const view = await a.waitFor(taskId, 'FAILED')
    expect(view.task.result?.text).toBe('no such address')
    expect(view.steps.map((s) => `${s.type} ${s.outcome} ${s.errors.map((e) => e.code).join()}`)).toEqual(['navigate done ', 'navigate failed NAVIGATION_FAILED'])
    const prompts = promptsFor('[words]')
    expect(prompts).toHaveLength(2)
    expect(prompts[1]!.text).toContain('navigate: FAILED NAVIGATION_FAILED “not a url” cannot be opened. A web address has no spaces.')
  })

  it('opens a bare host name as the https address it means', async () => {
    const { taskId } = await a.start({ goal: '[bare] open the shop', startUrl: 'http://shop.example/' })
    await a.report(await a.nextAction(taskId), { url: 'http://shop.example/' })
    const next = await a.nextAction(taskId)
    expect(next).toMatchObject({ type: 'navigate', params: { url: 'https://shop.example/items' } })
    await a.report(next, { url: 'https://shop.example/items' })
    expect((await a.waitFor(taskId, 'SUCCEEDED')).task.result?.text).toBe('opened')
  })
})

describe('"Don\'t allow" ends or skips, and never asks again', () => {
  it('refusing the site a task starts on ends the task as the person’s choice, with a plain note', async () => {
    const { taskId } = await a.start({ goal: 'script', script: [{ type: 'observe' }], startUrl: 'http://shop.example/' })
    const first = await a.nextAction(taskId)
    await a.report(first, denied('http://shop.example'))
    expect((await a.status(taskId)).task).toMatchObject({ status: 'WAITING_USER', askedSite: 'http://shop.example' })
    const res = await server.api('POST', '/api/agent/answer', { taskId, answer: 'No.', siteAccess: 'refused' })
    expect(res.body).toEqual({ ok: true, data: { status: 'CANCELED' } })
    const view = await a.status(taskId)
    expect(view.task.error).toEqual({ code: 'CANCELED', message: 'You did not allow http://shop.example, where the task starts, so the task ended.' })
    expect((await a.next(taskId)).action).toBeNull()
    expect(view.steps).toHaveLength(1)
  })

  it('refusing a later site tells the planner, and a step headed there again fails at once, never reaching the browser', async () => {
    const { taskId } = await a.start({ goal: '[polite] shop', startUrl: 'http://shop.example/' })
    await a.report(await a.nextAction(taskId), { url: 'http://shop.example/' })
    const away = await a.nextAction(taskId)
    expect(away).toMatchObject({ type: 'navigate', params: { url: 'https://evil.example/collect' } })
    await a.report(away, denied('https://evil.example'))
    await a.waitFor(taskId, 'WAITING_USER')
    expect((await a.answerSite(taskId, 'refused')).status).toBe('RUNNING')
    const view = await a.waitFor(taskId, 'SUCCEEDED')
    expect(view.task.result?.text).toBe('went on without it')
    expect(promptsFor('[polite]').at(-1)!.text).toContain('No: the person did not allow https://evil.example. Tandem will not go there in this task')
  })

  it('a planner that keeps going for a refused site is stopped before dispatch, then the task ends', async () => {
    const { taskId } = await a.start({ goal: '[stubborn] shop', startUrl: 'http://shop.example/' })
    await a.report(await a.nextAction(taskId), { url: 'http://shop.example/' })
    await a.report(await a.nextAction(taskId), denied('https://evil.example'))
    await a.waitFor(taskId, 'WAITING_USER')
    await a.answerSite(taskId, 'refused')
    const view = await a.waitFor(taskId, 'CANCELED')
    expect(view.task.error).toEqual({ code: 'SITE_REFUSED', message: 'The task ended: it tried again to go to https://evil.example, which you did not allow.' })
    // One ask, then two tries stopped by the engine: the card never came back.
    expect(view.steps.map((s) => `${s.type} ${s.outcome} ${s.errors.map((e) => e.code).join()}`)).toEqual([
      'navigate done ',
      'navigate failed PERMISSION_DENIED',
      'navigate failed SITE_REFUSED',
      'navigate failed SITE_REFUSED',
    ])
    expect(view.steps[2]!.errors[0]).toEqual({
      code: 'SITE_REFUSED',
      message: 'You did not allow https://evil.example in this task, so Tandem does not go there. Go on without it, or finish.',
      origin: 'https://evil.example',
    })
    const events = await eventsOf(taskId)
    expect(events.filter((e) => e.type === 'user.asked')).toHaveLength(1)
    const dispatched = events.filter((e) => e.type === 'action.dispatched').map((e) => e.actionId)
    const toEvil = events.filter((e) => e.type === 'action.proposed' && (e.data as { action: Action }).action.params.url === 'https://evil.example/collect')
    expect(toEvil).toHaveLength(3)
    expect(toEvil.filter((e) => dispatched.includes(e.actionId))).toHaveLength(1)
    expect(promptsFor('[stubborn]').at(-1)!.text).toContain('SITE_REFUSED You did not allow https://evil.example in this task')
  })

  it('a click that leads to a refused site is not asked about again: it fails, and a second one ends the task', async () => {
    const { taskId } = await a.start({ goal: '[clicky] shop', startUrl: 'http://shop.example/' })
    await a.report(await a.nextAction(taskId), { url: 'http://shop.example/' })
    await a.report(await a.nextAction(taskId), denied('https://evil.example'))
    await a.waitFor(taskId, 'WAITING_USER')
    expect((await a.answerSite(taskId, 'refused')).status).toBe('RUNNING')
    const again = await a.nextAction(taskId)
    expect(again.type).toBe('click')
    expect((await a.report(again, denied('https://evil.example'))).status).toBe('RUNNING')
    let view = await a.status(taskId)
    expect(view.steps.at(-1)!.errors).toMatchObject([{ code: 'SITE_REFUSED', origin: 'https://evil.example' }])
    await a.report(await a.nextAction(taskId), denied('https://evil.example'))
    view = await a.waitFor(taskId, 'CANCELED')
    expect(view.task.error?.code).toBe('SITE_REFUSED')
    expect((await eventsOf(taskId)).filter((e) => e.type === 'user.asked')).toHaveLength(1)
  })

  it('a script that needs a refused site ends', async () => {
    const { taskId } = await a.start({ goal: 'script', script: [{ type: 'click', selector: '#a' }, { type: 'click', selector: '#b' }], startUrl: 'http://shop.example/' })
    await a.report(await a.nextAction(taskId), { url: 'http://shop.example/' })
    await a.report(await a.nextAction(taskId), denied('https://evil.example'))
    await a.waitFor(taskId, 'WAITING_USER')
    // A script cannot go on without a step: refusing the site it needs ends it.
    expect((await a.answerSite(taskId, 'refused')).status).toBe('CANCELED')
    expect((await a.status(taskId)).task.error?.message).toBe('You did not allow https://evil.example, which the script needs, so the task ended.')
  })

  it('refuses a "Don\'t allow" for a task that asks about no site', async () => {
    const { taskId } = await a.start({ goal: 'script', script: [{ type: 'ask_user', question: 'Which colour?' }] })
    await a.waitFor(taskId, 'WAITING_USER')
    const res = await server.api('POST', '/api/agent/answer', { taskId, answer: 'no', siteAccess: 'refused' })
    expect(res.status).toBe(409)
    expect(res.body.error.code).toBe('CONFLICT')
  })
})

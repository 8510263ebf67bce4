import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StatusView } from '#protocol'
import { answer, startFakeLlm, type FakeLlm } from '../test/support/fake-llm'
import { useHarness } from './support/use-harness'

// A model that will not take no for an answer: whatever the page, it goes for the site the person refused.
let llm: FakeLlm
let refusedUrl = ''
beforeAll(async () => {
  llm = await startFakeLlm(() => answer([{ type: 'navigate', url: refusedUrl }]))
})
afterAll(async () => llm?.close())

// `localhost` is granted to the extension people load (it is where the server may run); here it resolves to
// nothing, so a granted site can fail DNS. The server and the fixture site answer at 127.0.0.1.
const h = useHarness({
  resetSite: true,
  server: () => ({ env: { TANDEM_LLM_BASE_URL: llm.url, TANDEM_LLM_MODEL: 'fake-stubborn' } }),
  browser: { hostRules: ['MAP localhost ~NOTFOUND'] },
})

const story = (view: StatusView) => JSON.stringify({ task: view.task, steps: view.steps.map((s) => [s.type, s.outcome, s.errors]) })

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((r) => server.close(() => r()))
  return port
}

/** Runs a task that starts at `url`, and expects its navigate step itself to fail with NAVIGATION_FAILED. */
async function startFailsAt(url: string) {
  const taskId = await h.runScript([{ type: 'observe' }], url)
  const view = await h.waitFor(taskId, ['FAILED', 'SUCCEEDED', 'WAITING_USER'], 45_000)
  expect(view.task.status, story(view)).toBe('FAILED')
  // The navigate step is the one that failed; the observe after it never ran.
  expect(view.steps.map((s) => `${s.type} ${s.outcome}`), story(view)).toEqual(['navigate failed'])
  expect(view.task.error?.code).toBe('NAVIGATION_FAILED')
  const [error] = view.steps[0]!.errors
  expect(error?.code).toBe('NAVIGATION_FAILED')
  return { taskId, view, error: error! }
}

describe('a navigate step whose page does not come up fails itself, saying why', () => {
  it('a site whose name does not resolve: dns', async () => {
    const url = `http://localhost:${h.site.port}/arrived`
    const { error } = await startFailsAt(url)
    expect(error.details).toEqual({ reason: 'dns', url, netError: 'net::ERR_NAME_NOT_RESOLVED' })
    expect(error.message).toBe(`The site localhost:${h.site.port} could not be found: its name does not resolve. Check the address.`)
  })

  it('a port nothing listens on: refused', async () => {
    const port = await closedPort()
    const url = `http://127.0.0.1:${port}/`
    const { error } = await startFailsAt(url)
    expect(error.details).toEqual({ reason: 'refused', url, netError: 'net::ERR_CONNECTION_REFUSED' })
    expect(error.message).toContain('refused the connection')
    // Not the old story: "done", then the next step failing on the browser's error page.
    expect(error.message).not.toContain('error page')
  })

  it('a page that is not there: http-status 404, with the page the site sent as evidence', async () => {
    const url = `${h.site.url}/no-such-page`
    const { view, error } = await startFailsAt(url)
    expect(error.details).toEqual({ reason: 'http-status', url, status: 404 })
    expect(error.message).toBe(`${url} answered with HTTP 404 (not found): the page is not there.`)
    expect(view.steps[0]!.artifacts?.map((a) => a.label)).toEqual(['observation'])
  })

  it('a later navigate to a page whose server fails: http-status 500, after a first step that worked', async () => {
    const taskId = await h.runScript([{ type: 'navigate', url: `${h.site.url}/broken` }, { type: 'observe' }], `${h.site.url}/arrived`)
    const view = await h.waitFor(taskId, ['FAILED', 'SUCCEEDED'], 45_000)
    expect(view.steps.map((s) => `${s.type} ${s.outcome}`), story(view)).toEqual(['navigate done', 'navigate failed'])
    expect(view.steps[1]!.errors).toEqual([
      {
        code: 'NAVIGATION_FAILED',
        message: `${h.site.url}/broken answered with HTTP 500 (server error): the page is not there.`,
        details: { reason: 'http-status', url: `${h.site.url}/broken`, status: 500 },
      },
    ])
  })
})

describe('the panel and "Don\'t allow"', () => {
  it('refuses words that are no address under the field, and starts nothing', async () => {
    const panel = await h.ext.openPanel()
    await panel.reload()
    const start = panel.getByTestId('start')
    const before = (await h.server.api('GET', '/api/agent/tasks')).body
    await start.locator('textarea[name=goal]').fill('Look around')
    await start.getByLabel('In a new tab').check()
    await start.locator('input[name=startUrl]').fill('不是网址')
    await start.getByRole('button', { name: 'Run' }).click()
    await expect.poll(() => start.getByTestId('start-url-error').innerText()).toBe(
      'That is not a web address. Enter one such as example.com, localhost:3000 or https://example.com/page.',
    )
    expect(await start.locator('input[name=startUrl]').getAttribute('aria-invalid')).toBe('true')
    expect((await h.server.api('GET', '/api/agent/tasks')).body).toEqual(before)
    // Typing again clears it.
    await start.locator('input[name=startUrl]').fill('example.com')
    await expect.poll(() => start.getByTestId('start-url-error').count()).toBe(0)
  })

  it('refusing the site a task starts on ends the task; the card does not come back', async () => {
    const denied = `${h.site.deniedUrl('shop.test')}/shop/`
    const origin = new URL(denied).origin
    const taskId = await h.runScript([{ type: 'observe' }], denied)
    await h.waitFor(taskId, 'WAITING_USER')
    const panel = await h.ext.openPanel()
    await panel.reload()
    const card = panel.getByTestId('site-access')
    await expect.poll(() => card.innerText(), { timeout: 10_000 }).toContain(origin)
    // The card says what "Don't allow" will do before the person clicks it.
    expect(await card.getByTestId('site-refuse-hint').innerText()).toBe('If you don’t allow it, the task does not go there again; a task that starts there ends.')
    await card.getByRole('button', { name: 'Don’t allow' }).click()
    const view = await h.waitFor(taskId, ['CANCELED', 'FAILED', 'SUCCEEDED'], 15_000)
    expect(view.task.status).toBe('CANCELED')
    expect(view.task.error?.message).toBe(`You did not allow ${origin}, where the task starts, so the task ended.`)
    await expect.poll(() => panel.getByTestId('notice').innerText()).toBe(`Not allowed: ${origin}. The task needs that site, so it ended.`)
    // Some seconds on: no navigate ran again and the card is gone.
    await new Promise((r) => setTimeout(r, 3000))
    const after = await h.status(taskId)
    expect(after.steps.map((s) => `${s.type} ${s.outcome}`)).toEqual(['navigate failed'])
    expect(await card.count()).toBe(0)
    expect((await h.audit(taskId)).filter((e) => e.type === 'user.asked')).toHaveLength(1)
    expect(h.site.requests.filter((r) => r.includes('shop.test'))).toEqual([])
  })

  it('refusing a later site is final: the planner hears it, no step goes there, and trying again ends the task', async () => {
    refusedUrl = `${h.site.deniedUrl('shop.test')}/shop/`
    const origin = new URL(refusedUrl).origin
    const started = await h.server.api('POST', '/api/agent/start', { goal: 'Shop', clientId: h.clientId, startUrl: `${h.site.url}/arrived` })
    const taskId = started.body.data.taskId as string
    await h.ext.wake()
    await h.waitFor(taskId, 'WAITING_USER', 45_000)
    const panel = await h.ext.openPanel()
    await panel.reload()
    const card = panel.getByTestId('site-access')
    await expect.poll(() => card.innerText(), { timeout: 10_000 }).toContain(origin)
    await card.getByRole('button', { name: 'Don’t allow' }).click()
    const view = await h.waitFor(taskId, ['CANCELED', 'FAILED', 'SUCCEEDED'], 30_000)
    expect(view.task.status, story(view)).toBe('CANCELED')
    expect(view.task.error).toEqual({ code: 'SITE_REFUSED', message: `The task ended: it tried again to go to ${origin}, which you did not allow.` })
    expect(view.steps.map((s) => `${s.type} ${s.outcome} ${s.errors.map((e) => e.code).join()}`), story(view)).toEqual([
      'navigate done ',
      'navigate failed PERMISSION_DENIED',
      'navigate failed SITE_REFUSED',
      'navigate failed SITE_REFUSED',
    ])
    // Asked once; the browser never went there; the card did not come back.
    const audit = await h.audit(taskId)
    expect(audit.filter((e) => e.type === 'user.asked')).toHaveLength(1)
    expect(audit.filter((e) => e.type === 'action.dispatched')).toHaveLength(2)
    expect(h.site.requests.filter((r) => r.includes('shop.test'))).toEqual([])
    expect(await card.count()).toBe(0)
    expect(llm.requests.at(-1)!.text).toContain(`SITE_REFUSED You did not allow ${origin} in this task`)
  })
})

import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { AuditEvent, ScriptStep } from '#protocol'
import { scanPixels } from '../test/support/pixels'
import { checkoutScript } from './fixtures/checkout-script'
import { useHarness } from './support/use-harness'

const h = useHarness({ resetSite: true })

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Polls `read` until it returns `wanted`; fails with the last value it saw. */
async function until<T>(read: () => Promise<T>, wanted: T, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last: T | undefined
  for (;;) {
    last = await read().catch(() => undefined)
    if (last === wanted) return
    if (Date.now() > deadline) throw new Error(`${what}: expected ${String(wanted)}, last saw ${String(last)}`)
    await sleep(100)
  }
}

const indicatorState = (page: Page) => page.locator('tandem-indicator').getAttribute('data-state', { timeout: 1000 })
const badgeText = async () => (await h.ext.worker()).evaluate(() => chrome.action.getBadgeText({}) as Promise<string>)
const paused = (events: AuditEvent[]) => events.filter((e) => e.type === 'task.paused')

/** The agent waits on /work for the work to be finished; the person may do it themselves. */
const waitForTheWork: ScriptStep[] = [
  { type: 'screenshot' },
  { type: 'waitFor', text: 'Finished', timeoutMs: 60_000 },
  { type: 'extract', instruction: 'the state of the work' },
]

async function runningWait(taskId: string, run: string): Promise<Page> {
  const page = await h.ext.pageWith(`/work?run=${run}`)
  // Proposed is not yet in flight: a cancel before the extension took the wait would leave no step to end.
  const waitTaken = async () => {
    const current = (await h.status(taskId)).currentAction
    if (current?.type !== 'waitFor') return false
    return (await h.audit(taskId)).some((e) => e.type === 'action.dispatched' && e.actionId === current.actionId)
  }
  await until(waitTaken, true, 'the wait taken by the extension')
  await until(() => indicatorState(page), 'ongoing', 'the indicator while the agent waits')
  return page
}

/** The side panel page, following `taskId` as it would after the person picked that task. */
async function panelFollowing(taskId: string): Promise<Page> {
  const worker = await h.ext.worker()
  await worker.evaluate((id) => chrome.storage.local.set({ 'tandem.panel.task': id }), taskId)
  const panel = await h.ext.openPanel()
  await panel.reload()
  await panel.getByTestId('controls').waitFor()
  return panel
}

const at = (event: AuditEvent) => Date.parse(event.ts)

/**
 * The wait in flight ended with the task, a moment after the cancel and far short of its minute: told by the
 * audit's own times, so a slow machine cannot make it pass or fail.
 */
async function expectWaitEndedByCancel(taskId: string) {
  await until(async () => (await h.status(taskId)).steps.length, 3, 'the stopped wait reported')
  const wait = (await h.status(taskId)).steps[2]
  expect(wait).toMatchObject({ type: 'waitFor', outcome: 'failed' })
  expect(wait.errors[0].message).toMatch(/stopped/)
  const events = await h.audit(taskId)
  const dispatched = events.find((e) => e.type === 'action.dispatched' && e.actionId === wait.actionId)!
  const observed = events.find((e) => e.type === 'observation' && e.actionId === wait.actionId)!
  const canceled = events.find((e) => e.type === 'task.canceled')!
  expect(at(canceled)).toBeGreaterThanOrEqual(at(dispatched))
  expect(at(observed) - at(canceled)).toBeLessThan(8000)
  expect(at(observed) - at(dispatched)).toBeLessThan(45_000)
  expect((observed.data.timing as Record<string, number>)['page.actMs']).toBeLessThan(45_000)
}

describe('takeover', () => {
  it('pauses the task on the person’s own input, once, and goes on when they press Resume in the page', async () => {
    const taskId = await h.runScript(waitForTheWork, `${h.site.url}/work?run=resume`, 'wait for the work')
    const page = await runningWait(taskId, 'resume')

    // The bar is on the page, dark, yet the screenshot taken meanwhile shows the page under it.
    const box = (await page.locator('tandem-indicator').boundingBox())!
    const live = await page.screenshot({ type: 'png' })
    expect((await scanPixels(page, live, { region: box })).brightness).toBeLessThan(150)
    const shot = (await h.audit(taskId)).find((e) => e.type === 'observation' && (e.data.artifacts as { label: string }[]).some((a) => a.label === 'screenshot'))!
    const artifact = (shot.data.artifacts as { name: string; label: string; contentType: string }[]).find((a) => a.label === 'screenshot')!
    expect((await scanPixels(page, h.artifact(taskId, artifact.name), { contentType: artifact.contentType, region: box })).brightness).toBeGreaterThan(200)

    // The person clicks the heading and types: one takeover, which ends the agent's wait there and then.
    await page.click('h1')
    const view = await h.waitFor(taskId, 'PAUSED')
    expect(view.task.status).toBe('PAUSED')
    await until(() => indicatorState(page), 'takeover', 'the indicator after the takeover')
    await page.keyboard.type('abc')
    await until(async () => (await h.status(taskId)).steps.length, 3, 'the wait reported while paused')
    const stopped = (await h.status(taskId)).steps[2]!
    expect(stopped).toMatchObject({ type: 'waitFor', outcome: 'taken_over' })
    expect(stopped.errors.map((e) => e.code)).toEqual(['TAKEN_OVER'])
    expect((await h.status(taskId)).task.status).toBe('PAUSED')

    const events = await h.audit(taskId)
    expect(paused(events)).toHaveLength(1)
    expect(String(paused(events)[0].data.reason)).toMatch(/^takeover: the person clicked/)
    const activity = await h.ext.storage<{ takeover?: { taskId: string; input: string } | null }>('tandem.activity')
    expect(activity.takeover).toMatchObject({ taskId, input: 'pointer' })

    // The page reloaded while the task waits for the person: the bar comes back with it, Resume included.
    await page.reload()
    await until(() => indicatorState(page), 'takeover', 'the indicator after the page reloaded')
    // They do the work themselves; once they hand back, the agent's wait runs again and finds it done.
    await page.click('#finish')
    expect(h.site.hits).toContain('finish')
    expect((await h.status(taskId)).task.status).toBe('PAUSED')

    await page.locator('tandem-indicator button[data-command="resume"]').click()
    const done = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED', 'CANCELED'])
    expect(done.task.status, JSON.stringify(done.steps)).toBe('SUCCEEDED')
    const after = await h.audit(taskId)
    expect(after.filter((e) => e.type === 'task.resumed')).toHaveLength(1)
    expect(paused(after)).toHaveLength(1)
    await until(() => indicatorState(page), 'idle', 'the indicator after the task finished')
    await until(async () => (await h.ext.storage<{ takeover?: unknown }>('tandem.activity')).takeover ?? null, null, 'the takeover note')
  })

  it('cancels the task when the person presses Stop in the page', async () => {
    const taskId = await h.runScript(waitForTheWork, `${h.site.url}/work?run=stop`, 'wait for the work')
    const page = await runningWait(taskId, 'stop')
    // In a narrow window the bar wraps its words instead of running off both edges.
    await page.setViewportSize({ width: 360, height: 640 })
    const bar = page.locator('tandem-indicator .bar')
    const box = (await bar.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(360)
    expect(await bar.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    await page.mouse.wheel(0, 200)
    await h.waitFor(taskId, 'PAUSED')
    expect(String(paused(await h.audit(taskId))[0].data.reason)).toMatch(/scrolled/)
    await until(() => indicatorState(page), 'takeover', 'the indicator after the takeover')
    await page.locator('tandem-indicator button[data-command="stop"]').click()
    await h.waitFor(taskId, 'CANCELED')
    await until(() => indicatorState(page), 'idle', 'the indicator after Stop')
    // The long wait in flight ended when the person took over, instead of running out its minute.
    await until(async () => (await h.status(taskId)).steps.length, 3, 'the stopped wait reported')
    const wait = (await h.status(taskId)).steps[2]!
    expect(wait).toMatchObject({ type: 'waitFor', outcome: 'taken_over' })
    expect(wait.errors[0]!.code).toBe('TAKEN_OVER')
  })

  it('tells the person in the side panel that they took over, and the panel’s Resume gives the page back', async () => {
    const taskId = await h.runScript(waitForTheWork, `${h.site.url}/work?run=panel`, 'wait for the work')
    const page = await runningWait(taskId, 'panel')
    const panel = await panelFollowing(taskId)
    const note = panel.getByTestId('takeover')
    expect(await note.count()).toBe(0)

    await page.click('h1')
    await h.waitFor(taskId, 'PAUSED')
    await note.waitFor()
    expect(await note.textContent()).toContain('You took over (you clicked in the page). Tandem waits; press Resume when you are done.')
    // One Resume, beside the words that explain it.
    expect(await panel.getByRole('button', { name: 'Resume' }).count()).toBe(1)

    await note.getByRole('button', { name: 'Resume' }).click()
    await h.waitFor(taskId, 'RUNNING')
    await note.waitFor({ state: 'detached' })
    // The agent's wait is still running: the page shows it in control again without waiting for that step.
    await until(() => indicatorState(page), 'ongoing', 'the indicator after Resume in the panel')
    expect((await h.audit(taskId)).filter((e) => e.type === 'task.resumed')).toHaveLength(1)

    // The work finishes by itself (no input of the person's): the wait ends and the task goes on to its end.
    await page.evaluate(() => document.getElementById('finish')!.click())
    const done = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED', 'CANCELED'])
    expect(done.task.status, JSON.stringify(done.steps)).toBe('SUCCEEDED')
    expect(paused(await h.audit(taskId))).toHaveLength(1)
    await until(() => indicatorState(page), 'idle', 'the indicator after the task finished')
  })

  it('ends the step in flight when the task is canceled in the side panel', async () => {
    const taskId = await h.runScript(waitForTheWork, `${h.site.url}/work?run=cancel-panel`, 'wait for the work')
    const page = await runningWait(taskId, 'cancel-panel')
    const panel = await panelFollowing(taskId)
    await panel.getByTestId('controls').getByRole('button', { name: 'Cancel task' }).click()
    await h.waitFor(taskId, 'CANCELED')
    await until(() => indicatorState(page), 'idle', 'the indicator after Cancel in the panel')
    await expectWaitEndedByCancel(taskId)
    expect((await h.audit(taskId)).find((e) => e.type === 'task.canceled')!.data.reason).toBe('Canceled in the side panel')
  })

  it('ends the step in flight when the task is canceled through the API, as the console does', async () => {
    const taskId = await h.runScript(waitForTheWork, `${h.site.url}/work?run=cancel-api`, 'wait for the work')
    const page = await runningWait(taskId, 'cancel-api')
    const reply = await h.server.api('POST', '/api/agent/cancel', { taskId, reason: 'Canceled from the console' })
    expect(reply.body).toMatchObject({ ok: true, data: { status: 'CANCELED' } })
    await until(() => indicatorState(page), 'idle', 'the indicator after the cancel')
    await expectWaitEndedByCancel(taskId)
  })

  it('is never taken over by the agent’s own clicks and typing, and badges the toolbar while a confirmation waits', async () => {
    const checkout = checkoutScript([
      { type: 'press', keys: 'Tab' },
      { type: 'scroll', direction: 'down' },
    ])
    await until(badgeText, '', 'the badge before the task')
    const taskId = await h.runScript(checkout, `${h.site.url}/shop/`, 'buy an iPhone 15')
    const confirmed: string[] = []
    for (;;) {
      const view = await h.waitFor(taskId, ['WAITING_CONFIRMATION', 'SUCCEEDED', 'FAILED', 'CANCELED', 'PAUSED'], 60_000)
      if (view.task.status !== 'WAITING_CONFIRMATION') {
        expect(view.task.status, JSON.stringify(view.steps)).toBe('SUCCEEDED')
        break
      }
      await until(badgeText, '!', 'the badge while a confirmation waits')
      const action = view.pendingConfirmation!.action
      // A card before a step (the order, which the script says is irreversible) leaves the page as it is; a held form
      // post (adding to the cart) leaves it mid-navigation, where the page is not read until the person decides.
      if (action.type !== 'release') {
        const page = h.ext.context.pages().filter((p) => p.url().includes('/shop')).at(-1)!
        await until(() => indicatorState(page), 'approval', 'the indicator while the person decides')
        // The page says where the decision waits.
        expect(await page.locator('tandem-indicator .message').textContent()).toBe('Waiting for your approval in the Tandem side panel')
      }
      confirmed.push(String(action.target?.value))
      await h.confirm(taskId, true)
    }
    expect(confirmed).toContain('Place order')
    await until(badgeText, '', 'the badge after the last decision')
    expect(paused(await h.audit(taskId))).toEqual([])
    expect(h.site.shop.orders).toHaveLength(1)
    // The agent's scroll really moved the checkout page, as the page itself reported.
    expect(h.site.hits).toContain('checkout-scrolled')
  })
})

declare const chrome: any

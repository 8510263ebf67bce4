import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StatusView, TaskPlan } from '#protocol'
import { answer, startFakeLlm, type FakeLlm, type FakeRequest } from '../test/support/fake-llm'
import { shopper, shopperEnv } from './support/shopper'
import { useHarness } from './support/use-harness'

// The plan the model proposes: the shop on 127.0.0.1 only; it sends the cart's form and the order (a payment).
const planFor = (port: number): TaskPlan => ({
  steps: ['Search the shop for the iPhone 15', 'Add it to the cart', 'Check out in the name of Ada Lovelace', 'Place the order'],
  sites: [`127.0.0.1:${port}`],
  sends: [
    { what: 'the form that adds the phone to the cart', kind: 'sending' },
    { what: 'the order for one iPhone 15, in the name of Ada Lovelace', kind: 'payment' },
  ],
})

let llm: FakeLlm
/** A model that proposes the plan when asked for one, shops as planned, then looks at a site the plan does not name. */
function planThenShop(port: () => number) {
  return (r: FakeRequest) => {
    if (/propose a\s+plan in words/.test(String(r.messages[0]?.content))) return JSON.stringify(planFor(port()))
    const page = /<untrusted_page url="([^"]*)"/.exec(String(r.messages.at(-1)?.content ?? ''))?.[1] ?? ''
    if (page.startsWith('http://localhost:')) return answer([{ type: 'done', success: true, text: 'The order is confirmed.' }], { next_goal: 'Report the order' })
    if (/title="Order confirmed"/.test(String(r.messages.at(-1)?.content ?? ''))) {
      return answer([{ type: 'navigate', url: `http://localhost:${port()}/shop/` }], { next_goal: 'Compare with the other shop' })
    }
    return shopper(r)
  }
}

beforeAll(async () => {
  llm = await startFakeLlm(planThenShop(() => h.site.port))
})
afterAll(async () => llm?.close())
const h = useHarness({ server: () => ({ env: shopperEnv(llm) }) })

async function followedTask(): Promise<string> {
  let id: string | null = null
  await expect.poll(async () => (id = await h.ext.storage<string | null>('tandem.panel.task')), { timeout: 10_000 }).toBeTruthy()
  return id!
}

/** Waits for the server's pending confirmation to be the card in the panel, and approves it there. */
async function approveInPanel(panel: Page, taskId: string): Promise<StatusView> {
  const view = await h.waitFor(taskId, 'WAITING_CONFIRMATION', 60_000)
  const card = panel.getByTestId('confirmation')
  await expect.poll(() => card.getAttribute('data-action'), { timeout: 10_000 }).toBe(view.pendingConfirmation!.actionId)
  await card.locator('button.approve').click()
  await expect.poll(async () => (await h.status(taskId)).pendingConfirmation?.actionId ?? null, { timeout: 10_000 }).not.toBe(view.pendingConfirmation!.actionId)
  return view
}

// The pages asked of a host (the browser's own favicon requests are not the task's).
const requestsTo = (host: string) => h.site.requests.filter((r) => r.split(' ')[1] === host && !r.endsWith(' /favicon.ico'))

describe('a plan-first task in the real extension', () => {
  it('proposes a plan the person approves in the side panel, then runs with no question until a step leaves the plan; the order is still confirmed', async () => {
    h.site.reset()
    const port = h.site.port
    const panel = await h.ext.openPanel()
    await panel.reload()
    const start = panel.getByTestId('start')
    await start.waitFor()
    await start.locator('textarea[name=goal]').fill('Buy an iPhone 15 for Ada Lovelace')
    await start.locator('input[name=where][value=new]').check()
    await start.locator('input[name=startUrl]').fill(`${h.site.url}/shop/`)
    await start.locator('input[name=planFirst]').check()
    await start.locator('button[type=submit]').click()
    const taskId = await followedTask()

    // The plan, in the panel; nothing has run and no page of any site was asked for.
    const card = panel.getByTestId('plan')
    await card.waitFor({ timeout: 30_000 })
    expect((await h.status(taskId)).task.status).toBe('WAITING_PLAN')
    expect(await card.getByTestId('plan-steps').locator('li').allInnerTexts()).toEqual(planFor(port).steps)
    expect(await card.getByTestId('plan-sites').innerText()).toBe(`127.0.0.1:${port}`)
    expect(await card.getByTestId('plan-sends').locator('li').allInnerTexts()).toEqual([
      'the form that adds the phone to the cart (sending something)',
      'the order for one iPhone 15, in the name of Ada Lovelace (a purchase or payment)',
    ])
    expect(await panel.getByTestId('task-status').innerText()).toBe('Waiting for you to approve the plan')
    expect(h.site.requests).toEqual([])
    expect(h.site.shop.orders).toEqual([])

    // A reader in Chinese sees the same plan in their words; neither panel is wider than a narrow side panel.
    const zh = await h.ext.context.newPage()
    await zh.addInitScript(() => Object.defineProperty(navigator, 'language', { get: () => 'zh-CN' }))
    await zh.goto(panel.url())
    await zh.getByTestId('plan').waitFor({ timeout: 10_000 })
    expect(await zh.getByTestId('plan').locator('h2').innerText()).toBe('批准计划')
    expect(await zh.getByTestId('plan-sends').locator('li').last().innerText()).toContain('（购买或付款）')
    for (const page of [panel, zh]) {
      await page.setViewportSize({ width: 320, height: 800 })
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
    }
    await zh.close()

    // The person edits the plan once (one more step) and approves it.
    await card.getByTestId('plan-edit').click()
    const steps = card.locator('textarea[name=plan-steps]')
    await steps.fill(`${await steps.inputValue()}\nShow me the confirmation`)
    expect(await panel.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
    await card.getByTestId('plan-approve').click()
    await panel.setViewportSize({ width: 1200, height: 800 })
    await expect.poll(async () => (await h.status(taskId)).task.plan?.state, { timeout: 10_000 }).toBe('approved')
    await expect.poll(() => card.count(), { timeout: 10_000 }).toBe(0)

    // From here every question is approved in the panel. What the risky steps send is asked about (the cart's form,
    // the order); the one step that leaves the plan is asked for that reason, and nothing reaches its site before.
    const asked: { view: StatusView; localhostBefore: number; ordersBefore: number }[] = []
    for (;;) {
      const view = await h.waitFor(taskId, ['WAITING_CONFIRMATION', 'SUCCEEDED', 'FAILED'], 60_000)
      if (view.task.status !== 'WAITING_CONFIRMATION') break
      asked.push({ view, localhostBefore: requestsTo(`localhost:${port}`).length, ordersBefore: h.site.shop.orders.length })
      if (view.pendingConfirmation!.reasonDetails?.some((d) => d.code === 'off-plan-site')) {
        // The card says why in the reader's words.
        await expect.poll(() => panel.getByTestId('confirmation').innerText(), { timeout: 10_000 }).toContain(`works on localhost:${port}, a site the plan you approved does not name`)
      }
      await approveInPanel(panel, taskId)
    }
    const done = await h.status(taskId)
    expect(done.task.status, JSON.stringify(done.task.error)).toBe('SUCCEEDED')
    const offPlan = asked.filter((a) => a.view.pendingConfirmation!.reasonDetails?.some((d) => d.code.startsWith('off-plan')))
    expect(offPlan).toHaveLength(1)
    const leave = offPlan[0]
    expect(leave.view.pendingConfirmation!.action).toMatchObject({ type: 'navigate', params: { url: `http://localhost:${port}/shop/` } })
    expect(leave.view.pendingConfirmation!.reasonDetails).toEqual([{ code: 'off-plan-site', site: `localhost:${port}` }])
    expect(leave.localhostBefore).toBe(0)
    // It came after the order: the plan's own steps, risky ones confirmed, ran with no other kind of question.
    expect(leave.ordersBefore).toBe(1)
    // The order's click ran; the post it sent was held and is what the person confirmed.
    const order = asked.find((a) => a.view.pendingConfirmation!.reasonDetails?.some((d) => d.code === 'held-write' && d.path === '/shop/order'))
    expect(order, 'the order was confirmed').toBeDefined()
    expect(order!.ordersBefore).toBe(0)
    expect(asked.indexOf(order!)).toBeLessThan(asked.indexOf(leave))
    expect(h.site.shop.orders).toEqual([{ items: ['iphone-15'], name: 'Ada Lovelace', cardLast4: '' }])
    expect(requestsTo(`localhost:${port}`)).toEqual([`GET localhost:${port} /shop/`])

    // The audit: the proposal, the person's edit, and one question for leaving the plan.
    const events = await h.audit(taskId)
    const types = events.map((e) => e.type)
    expect(types.indexOf('plan.proposed')).toBeLessThan(types.indexOf('plan.answered'))
    expect(types.indexOf('plan.answered')).toBeLessThan(types.indexOf('action.dispatched'))
    const answered = events.find((e) => e.type === 'plan.answered')!.data
    expect(answered).toMatchObject({ approved: true, edited: true, by: h.clientId, plan: { steps: [...planFor(port).steps, 'Show me the confirmation'] } })
    const requested = events.filter((e) => e.type === 'confirmation.requested').map((e) => (e.data.reasonDetails as { code: string }[]).map((d) => d.code))
    expect(requested.length).toBe(asked.length)
    expect(requested.filter((codes) => codes.some((c) => c.startsWith('off-plan')))).toEqual([['off-plan-site']])
    // Every prompt after the approval carried the plan as the person edited it.
    const prompts = llm.requests.filter((r) => !/propose a\s+plan in words/.test(String(r.messages[0]?.content)))
    expect(prompts.length).toBeGreaterThanOrEqual(5)
    for (const p of prompts) expect(p.text).toContain('5. Show me the confirmation')
    await expect.poll(() => panel.getByTestId('plan-held').count()).toBe(1)
  })
})

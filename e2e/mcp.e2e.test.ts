import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { connectMcp, type McpTestClient } from '../test/support/mcp-client'
import { useHarness } from './support/use-harness'

const h = useHarness({ resetSite: true })
const AGENT = { name: 'e2e-outside-agent', version: '0.9.0' }

let mcp: McpTestClient | undefined
afterEach(async () => {
  await mcp?.close().catch(() => undefined)
  mcp = undefined
})

/** The index of the first element line of the page (as read_page gives it) that contains `words`. */
function indexOf(page: string, words: string): number {
  const line = page.split('\n').find((l) => /\[\d+\]</.test(l) && l.includes(words))
  if (!line) throw new Error(`no element with “${words}” on the page:\n${page}`)
  return Number(/\[(\d+)\]</.exec(line)![1])
}

async function openPanel(): Promise<Page> {
  const panel = await h.ext.openPanel()
  await panel.reload()
  await panel.getByTestId('start').waitFor()
  return panel
}

/** As the person: the panel shows the task's card for `actionId`, opened from the pinned line if another task is shown. */
async function cardFor(panel: Page, taskId: string, actionId: string) {
  const card = panel.getByTestId('confirmation')
  await expect
    .poll(
      async () => {
        const pinned = panel.getByTestId('waiting').locator(`[data-task="${taskId}"]`)
        if ((await card.getAttribute('data-action').catch(() => null)) !== actionId && (await pinned.count())) await pinned.click()
        return card.getAttribute('data-action', { timeout: 1000 }).catch(() => null)
      },
      { timeout: 20_000 },
    )
    .toBe(actionId)
  return card
}

/** A token of the agent's own, as the person makes it for their coding agent (`npm run token -- add NAME`). */
async function agentToken(name: string): Promise<{ id: string; token: string }> {
  const made = await h.server.api('POST', '/api/tokens', { scope: 'mcp', name })
  expect(made.status).toBe(201)
  return made.body.data
}

async function approveInPanel(panel: Page, taskId: string, actionId: string) {
  await (await cardFor(panel, taskId, actionId)).getByRole('button', { name: 'Approve' }).click()
}

describe('an outside agent over MCP', () => {
  it('buys on the fixture shop step by step; the order waits for the person’s approval in the side panel, which the agent cannot give with its token, and the audit names each', async () => {
    const panel = await openPanel()
    const own = await agentToken('Claude Code')
    mcp = await connectMcp(h.server.url, own.token, AGENT.name, AGENT.version)
    const agent = mcp

    const started = await agent.call('start_task', { goal: 'Buy an iPhone 15 for Ada Lovelace', startUrl: `${h.site.url}/shop/` })
    expect(started.isError, started.text).toBe(false)
    const taskId: string = started.data.task.id
    expect(started.data.task.mode).toBe('mcp')

    const asked: { actionId: string; target?: string; ordersBefore: number; requestsBefore: number }[] = []
    /** One step as the agent decides it; any question for the person is answered by the person, in the panel. */
    async function step(action: Record<string, unknown>) {
      let answer = await agent.call('act', { taskId, action, waitMs: 30_000 })
      expect(answer.isError, answer.text).toBe(false)
      while (answer.data.task.status !== 'RUNNING' || answer.data.currentAction) {
        if (answer.data.task.status === 'WAITING_CONFIRMATION') {
          expect(answer.text).toMatch(/^Waiting for the person: .* You cannot approve or reject it for them/)
          // The agent cannot answer: there is no tool for it, and pushing another step is refused.
          const pushed = await agent.call('act', { taskId, action: { type: 'scroll', direction: 'down' } })
          expect(pushed).toMatchObject({ isError: true, error: { code: 'CONFLICT' } })
          const pending = answer.data.pendingConfirmation
          // Nor can it over HTTP with its own token, even naming the extension: the step stays the person's.
          const approve = { taskId, actionId: pending.actionId, approved: true }
          const forged = await h.server.api('POST', '/api/agent/confirm', approve, { token: own.token, headers: { 'x-tandem-client': h.clientId } })
          expect(forged.status).toBe(403)
          expect((await h.server.api('POST', '/api/agent/next', { clientId: h.clientId, taskId }, { token: own.token })).status).toBe(403)
          asked.push({ actionId: pending.actionId, target: pending.evidence?.targetText, ordersBefore: h.site.shop.orders.length, requestsBefore: h.site.requests.length })
          const waiting = agent.call('task_status', { taskId, waitMs: 30_000 })
          await approveInPanel(panel, taskId, pending.actionId)
          answer = await waiting
        } else if (answer.data.task.status === 'RUNNING' || answer.data.task.status === 'WAITING_PAGE') {
          answer = await agent.call('task_status', { taskId, waitMs: 30_000 })
        } else {
          throw new Error(`the task is ${answer.data.task.status}: ${answer.text}`)
        }
      }
      expect(answer.text, answer.text).toMatch(/^Your turn/)
      const last = answer.data.steps.filter((s: { number?: number }) => s.number).at(-1)
      expect(last.outcome, JSON.stringify(last)).toBe('done')
      return answer
    }
    const page = async () => (await agent.call('read_page', { taskId })).text as string

    // The start URL opens first; then the agent reads the page as Tandem's planner does and picks by index.
    const opened = await agent.call('task_status', { taskId, waitMs: 30_000 })
    expect(opened.text).toMatch(/^Your turn/)
    // The person sees who chooses the steps, and that the task waits for that agent, not for them.
    await expect.poll(() => panel.getByTestId('task-driver').innerText().catch(() => ''), { timeout: 15_000 }).toContain(`${AGENT.name}, an outside agent connected over MCP`)
    await expect.poll(() => panel.getByTestId('driver-turn').innerText().catch(() => ''), { timeout: 10_000 }).toBe(`Waiting for ${AGENT.name} to choose the next step.`)
    let shown = await page()
    expect(shown).toContain(`<untrusted_page url="${h.site.url}/shop/" title="Shop">`)
    await step({ type: 'type', index: indexOf(shown, 'Search products'), text: 'iPhone 15', submit: true })
    shown = await page()
    expect(shown).toContain('Results for')
    await step({ type: 'click', index: indexOf(shown, 'Add iPhone 15 to cart') })
    shown = await page()
    await step({ type: 'click', index: indexOf(shown, 'Proceed to checkout') })
    shown = await page()
    await step({ type: 'type', index: indexOf(shown, 'fullname'), text: 'Ada Lovelace' })
    expect(h.site.shop.orders).toEqual([])
    // The agent does not call the order risky: Tandem's gate does, and the person is asked.
    await step({ type: 'click', index: indexOf(await page(), 'Place order') })
    shown = await page()
    expect(shown).toContain('Order #1 confirmed')
    const done = await agent.call('act', { taskId, action: { type: 'done', success: true, text: 'Ordered an iPhone 15 for Ada Lovelace.' } })
    expect(done.data.task.status).toBe('SUCCEEDED')

    expect(h.site.shop.orders).toEqual([{ items: ['iphone-15'], name: 'Ada Lovelace', cardLast4: '' }])
    const order = asked.find((a) => a.target === 'Place order')
    expect(order, JSON.stringify(asked)).toBeDefined()
    // The fixture server saw the order only after the person approved it: nothing before the question, one after.
    expect(order!.ordersBefore).toBe(0)
    const posted = h.site.requests.map((r, i) => ({ r, i })).filter(({ r }) => r.startsWith('POST') && r.endsWith('/shop/order'))
    expect(posted).toHaveLength(1)
    expect(posted[0].i).toBeGreaterThanOrEqual(order!.requestsBefore)

    const events = await h.audit(taskId)
    expect(events.find((e) => e.type === 'task.created')!.data).toMatchObject({ mode: 'mcp', source: { mcp: AGENT } })
    expect(done.data.task.driver).toEqual(AGENT)
    const decisions = events.filter((e) => e.type === 'planner.decision')
    expect(decisions.length).toBe(6)
    for (const d of decisions) expect(d.data).toMatchObject({ planner: 'mcp', source: { mcp: AGENT } })
    // The approval was the person's, in the panel (the extension's client id), and came before the order went out.
    const approved = events.findIndex((e) => e.type === 'confirmation.answered' && e.actionId === order!.actionId)
    expect(events[approved].data).toMatchObject({ approved: true, by: h.clientId, source: { principal: { kind: 'owner', via: 'panel' } } })
    expect(events[approved].data.source).not.toHaveProperty('mcp')
    expect((events.find((e) => e.type === 'task.created')!.data as { source: { principal?: unknown } }).source.principal).toEqual({ kind: 'agent', tokenId: own.id, name: 'Claude Code', client: AGENT.name })
    const dispatched = events.findIndex((e) => e.type === 'action.dispatched' && e.actionId === order!.actionId)
    expect(dispatched).toBeGreaterThan(approved)
    const audit = await agent.call('read_audit', { taskId })
    expect(audit.data.verified.ok).toBe(true)
  })

  it('cannot get past the person: an order they reject in the side panel is never sent, and the agent hears their reason', async () => {
    const panel = await openPanel()
    mcp = await connectMcp(h.server.url, (await agentToken('Cursor')).token, AGENT.name, AGENT.version)
    const agent = mcp
    const started = await agent.call('start_task', { goal: 'Order for Ada Lovelace', startUrl: `${h.site.url}/shop/checkout` })
    const taskId: string = started.data.task.id
    expect((await agent.call('task_status', { taskId, waitMs: 30_000 })).text).toMatch(/^Your turn/)
    const typed = await agent.call('act', { taskId, action: { type: 'type', selector: 'input[name=fullname]', text: 'Ada Lovelace' }, waitMs: 30_000 })
    expect(typed.text).toMatch(/^Your turn/)

    const asking = await agent.call('act', { taskId, action: { type: 'click', text: 'Place order' }, waitMs: 30_000 })
    expect(asking.data.task.status).toBe('WAITING_CONFIRMATION')
    const pending = asking.data.pendingConfirmation
    const deciding = agent.call('task_status', { taskId, waitMs: 30_000 })
    const card = await cardFor(panel, taskId, pending.actionId)
    await card.locator('input[name=reason]').fill('Not with that card')
    await card.getByRole('button', { name: 'Reject' }).click()
    const decided = await deciding
    // The click ran; its order post was held and is what the person rejected, named by the button that sent it.
    expect(pending.action.type).toBe('release')
    expect(decided.text).toMatch(/^Your turn.*release “Place order”: rejected — the person said: Not with that card/)
    expect(decided.text).toContain('The person rejected the risky step: “Not with that card”.')

    // The agent gives up; the person reads that the agent canceled it, never that they did.
    const ended = await agent.call('cancel_task', { taskId, reason: 'The person did not want this order.' })
    expect(ended.data.status).toBe('CANCELED')
    const status = panel.getByTestId('task-status')
    await expect.poll(() => status.innerText().catch(() => ''), { timeout: 15_000 }).toBe(`Canceled by Cursor (${AGENT.name})`)
    expect(await panel.getByTestId('result').innerText()).toContain(`Cursor (${AGENT.name}) canceled the task.`)
    expect(h.site.shop.orders).toEqual([])
    expect(h.site.requests.filter((r) => r.startsWith('POST') && r.endsWith('/shop/order'))).toEqual([])
    const events = await h.audit(taskId)
    expect(events.some((e) => e.type === 'action.dispatched' && e.actionId === pending.actionId)).toBe(false)
    expect(events.find((e) => e.type === 'confirmation.answered')!.data).toMatchObject({ approved: false, reason: 'Not with that card', by: h.clientId })
  })
})

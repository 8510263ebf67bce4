import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createStorage } from 'unstorage'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { StartBody, TaskPlan, onPlanSites, riskKindsOf, type ObservationInput, type RiskReason } from '#protocol'
import { createLlmPlanner } from '../../server/lib/agent/llm-planner'
import { createScriptPlanner } from '../../server/lib/agent/script-planner'
import { createAuditLog } from '../../server/lib/audit/log'
import type { ChatMessage, Completion, LlmGateway } from '../../server/lib/llm/gateway'
import { offPlanReasons, widenPlan } from '../../server/lib/tasks/plan-check'
import type { PlanRecord } from '../../server/lib/tasks/task-record'
import { inProcessEngine } from '../support/engine'

const PLAN: TaskPlan = {
  steps: ['Search for the phone', 'Put it in the cart', 'Place the order'],
  sites: ['127.0.0.1:4000'],
  sends: [{ what: 'the order for Ada Lovelace', kind: 'payment' }],
}

describe('the plan schema', () => {
  it('takes steps, sites and what is sent with its kind', () => {
    expect(TaskPlan.parse(PLAN)).toEqual(PLAN)
    expect(TaskPlan.parse({ ...PLAN, sites: ['https://shop.example.com/x', 'example.org'], sends: [] }).sites).toHaveLength(2)
  })

  it.each([
    ['no steps', { ...PLAN, steps: [] }],
    ['an empty step', { ...PLAN, steps: ['  '] }],
    ['no sites', { ...PLAN, sites: [] }],
    ['a site that is no site', { ...PLAN, sites: ['the shop'] }],
    ['a send of an unknown kind', { ...PLAN, sends: [{ what: 'x', kind: 'gift' }] }],
    ['a send without its kind', { ...PLAN, sends: ['the order'] }],
    ['a key it does not know', { ...PLAN, approvedBy: 'me' }],
  ])('refuses %s', (_name, plan) => {
    expect(TaskPlan.safeParse(plan).success).toBe(false)
  })

  it.each(['com', 'co.uk', 'com.cn', 'github.io', 's3.amazonaws.com', '*', '*.example.com', 'shop.*', 'intranet', 'com.', 'https://co.uk/'])(
    'refuses %s as a site: it names no one site, and would approve every site under it',
    (site) => {
      const result = TaskPlan.safeParse({ ...PLAN, sites: [site] })
      expect(result.success).toBe(false)
      expect(result.error?.issues[0]?.message).toMatch(/a site such as shop\.example\.com/)
    },
  )

  it.each(['shop.example.com', 'example.co.uk', 'me.github.io', 'localhost', 'localhost:3000', '127.0.0.1:4000', '[::1]:8080', '中国.cn'])('takes %s as a site', (site) => {
    expect(TaskPlan.safeParse({ ...PLAN, sites: [site] }).success).toBe(true)
  })

  it('is an option of a start, and only a boolean', () => {
    expect(StartBody.parse({ goal: 'g', planFirst: true }).planFirst).toBe(true)
    expect(StartBody.safeParse({ goal: 'g', planFirst: 'yes' }).success).toBe(false)
  })

  it('matches a site by host, subdomains and the port it names', () => {
    expect(onPlanSites(['127.0.0.1:4000'], 'http://127.0.0.1:4000/shop/')).toBe(true)
    expect(onPlanSites(['127.0.0.1:4000'], 'http://127.0.0.1:4001/shop/')).toBe(false)
    expect(onPlanSites(['127.0.0.1:4000'], 'http://localhost:4000/shop/')).toBe(false)
    expect(onPlanSites(['example.com'], 'https://www.example.com:8443/a')).toBe(true)
    expect(onPlanSites(['example.com'], 'https://notexample.com/')).toBe(false)
    expect(onPlanSites(['https://shop.example.com/cart'], 'https://shop.example.com/pay')).toBe(true)
    // A plan stored before public suffixes were refused still approves nothing by one.
    expect(onPlanSites(['com'], 'https://shop.example.com/')).toBe(false)
    expect(onPlanSites(['co.uk', 'shop.example.com'], 'https://bank.co.uk/')).toBe(false)
    expect(onPlanSites(['intranet:8080'], 'http://intranet:8080/wiki')).toBe(true)
  })

  it('tells the kind of a risky step from its reasons', () => {
    const details: RiskReason[] = [{ code: 'label-high', label: 'Delete', kind: 'deletion' }, { code: 'submit-form' }, { code: 'form-typing' }]
    expect(riskKindsOf(details)).toEqual(['deletion', 'sending'])
  })
})

describe('the off-plan judgement', () => {
  const approved: PlanRecord = { state: 'approved', proposed: PLAN, approved: PLAN }
  const onShop = 'http://127.0.0.1:4000/shop/cart'

  it('says nothing before the plan is approved', () => {
    expect(offPlanReasons(undefined, { type: 'navigate', params: { url: 'https://evil.example/' } }, 'low', [])).toEqual([])
    expect(offPlanReasons({ state: 'proposed', proposed: PLAN }, { type: 'navigate', params: { url: 'https://evil.example/' } }, 'low', [])).toEqual([])
  })

  it('asks about opening, following a link to, or acting on a site the plan does not name', () => {
    expect(offPlanReasons(approved, { type: 'navigate', params: { url: 'http://localhost:4000/x' } }, 'low', [])).toEqual([{ code: 'off-plan-site', site: 'localhost:4000' }])
    const link = { index: 3, tag: 'a', attributes: { href: 'https://other.example/deal' } }
    expect(offPlanReasons(approved, { type: 'click', params: {}, element: link, pageUrl: onShop }, 'low', [])).toEqual([{ code: 'off-plan-site', site: 'other.example' }])
    expect(offPlanReasons(approved, { type: 'type', params: { text: 'hi' }, pageUrl: 'https://other.example/' }, 'low', [])).toEqual([{ code: 'off-plan-site', site: 'other.example' }])
  })

  it('lets steps on the plan\'s sites run, and reading, scrolling or waiting anywhere', () => {
    expect(offPlanReasons(approved, { type: 'navigate', params: { url: 'http://127.0.0.1:4000/shop/' } }, 'low', [])).toEqual([])
    expect(offPlanReasons(approved, { type: 'click', params: {}, element: { index: 1, tag: 'a', attributes: { href: '/shop/cart' } }, pageUrl: onShop }, 'low', [])).toEqual([])
    for (const type of ['observe', 'scroll', 'waitFor', 'screenshot'] as const) {
      expect(offPlanReasons(approved, { type, params: {}, pageUrl: 'https://other.example/' }, 'low', [])).toEqual([])
    }
  })

  it('asks about a kind of risky action nothing the plan sends covers, not one it covers', () => {
    const pay: RiskReason[] = [{ code: 'label-high', label: 'Place order', kind: 'payment' }]
    expect(offPlanReasons(approved, { type: 'click', params: {}, pageUrl: onShop }, 'high', pay)).toEqual([])
    const del: RiskReason[] = [{ code: 'label-high', label: 'Delete account', kind: 'deletion' }]
    expect(offPlanReasons(approved, { type: 'click', params: {}, pageUrl: onShop }, 'high', del)).toEqual([{ code: 'off-plan-send', kind: 'deletion' }])
    const post: RiskReason[] = [{ code: 'submit-form' }]
    expect(offPlanReasons(approved, { type: 'click', params: {}, pageUrl: onShop }, 'medium', post)).toEqual([{ code: 'off-plan-send', kind: 'sending' }])
    // A step of no particular kind (typing into a form) is not a send.
    expect(offPlanReasons(approved, { type: 'type', params: { text: 'x' }, pageUrl: onShop }, 'medium', [{ code: 'form-typing' }])).toEqual([])
  })

  it('does not ask again about a site or a kind the person approved an off-plan step for', () => {
    const plan: PlanRecord = structuredClone(approved)
    widenPlan(plan, [{ code: 'off-plan-site', site: 'localhost:4000' }, { code: 'off-plan-send', kind: 'deletion' }, { code: 'label-high', kind: 'deletion' }])
    expect(plan.addedSites).toEqual(['localhost:4000'])
    expect(plan.addedKinds).toEqual(['deletion'])
    expect(offPlanReasons(plan, { type: 'click', params: {}, pageUrl: 'http://localhost:4000/a' }, 'high', [{ code: 'label-high', kind: 'deletion' }])).toEqual([])
    expect(offPlanReasons(plan, { type: 'click', params: {}, pageUrl: 'http://localhost:4001/a' }, 'low', [])).toEqual([{ code: 'off-plan-site', site: 'localhost:4001' }])
  })
})

/** A model in process: a plan first when asked for one, then the steps `act` gives for the page it is shown. */
function model(act: (user: string) => object) {
  const calls: ChatMessage[][] = []
  const gateway: LlmGateway = {
    model: 'scripted',
    async complete({ messages }): Promise<Completion> {
      calls.push(messages)
      const system = String(messages[0].content)
      const user = String(messages.at(-1)!.content)
      const answer = /propose a\s+plan in words/.test(system) ? PLAN_ON('example.test') : act(user)
      return { text: JSON.stringify(answer), model: 'scripted', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, latencyMs: 1, format: 'json_schema' }
    },
  }
  return { gateway, calls }
}
const PLAN_ON = (site: string): TaskPlan => ({ steps: ['Open the page', 'Press Buy'], sites: [site], sends: [{ what: 'the purchase', kind: 'payment' }] })
const page = (url: string, tree: string): ObservationInput => ({ status: 'done', url, title: 'P', elementTree: tree, visibleTextSnippet: '', errors: [], timing: {} })

describe('a plan-first task in the engine', () => {
  let dir: string
  beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'tandem-plan-'))))
  afterEach(() => rmSync(dir, { recursive: true, force: true }))
  const source = { clientId: 'c1' }

  function boot(act: (user: string) => object) {
    const storage = createStorage()
    const audit = createAuditLog({ dir, fsync: false })
    const m = model(act)
    const engine = inProcessEngine(storage, audit, { planners: { script: createScriptPlanner(), llm: createLlmPlanner({ gateway: m.gateway }) }, pollIntervalMs: 5 })
    return { engine, audit, calls: m.calls }
  }

  it('waits with nothing run until the plan is answered, then runs held to the plan as the person edited it', async () => {
    const { engine, audit, calls } = boot((user) =>
      /localhost/.test(user)
        ? { next_goal: 'done', actions: [{ type: 'done', success: true, text: 'ok' }] }
        : /Buy/.test(user)
          ? { next_goal: 'look elsewhere', actions: [{ type: 'navigate', url: 'http://localhost:9/' }] }
          : { next_goal: 'wait', actions: [{ type: 'scroll', direction: 'down' }] },
    )
    const { taskId, status } = await engine.start({ goal: 'buy it', clientId: 'c1', startUrl: 'https://example.test/', planFirst: true }, source)
    expect(status).toBe('RUNNING')
    await engine.kick(taskId)
    let view = await engine.status(taskId)
    expect(view.task.status).toBe('WAITING_PLAN')
    expect(view.task.plan).toEqual({ state: 'proposed', proposed: PLAN_ON('example.test') })
    // Nothing reaches the browser while the plan waits: not even the start page.
    expect((await engine.next({ clientId: 'c1', taskId }, source)).action).toBeNull()
    await expect(engine.confirm({ taskId, actionId: 'a_x', approved: true }, source)).rejects.toMatchObject({ statusCode: 409 })
    // Nothing runs yet, so there is nothing to take over: the panel offers no pause, and the engine refuses one.
    await expect(engine.pause({ taskId, reason: 'take over' }, source)).rejects.toMatchObject({ statusCode: 409 })
    expect((await engine.status(taskId)).task.status).toBe('WAITING_PLAN')

    const edited = { ...PLAN_ON('example.test'), steps: ['Open the page', 'Press Buy', 'Stop there'] }
    expect((await engine.answerPlan({ taskId, approved: true, plan: edited }, source)).status).toBe('RUNNING')
    await expect(engine.answerPlan({ taskId, approved: true }, source)).rejects.toMatchObject({ statusCode: 409 })
    view = await engine.status(taskId)
    expect(view.task.plan).toMatchObject({ state: 'approved', approved: edited, edited: true })

    const open = (await engine.next({ clientId: 'c1', taskId }, source)).action!
    expect(open).toMatchObject({ type: 'navigate', params: { url: 'https://example.test/' }, requiresConfirmation: false })
    await engine.report({ taskId, actionId: open.actionId, observation: page('https://example.test/', '[0]<button>Buy</button>') as never }, source)
    await engine.kick(taskId)
    // The model's step leaves for a site the plan does not name: asked, with the reason as data.
    view = await engine.status(taskId)
    for (let i = 0; i < 50 && view.task.status !== 'WAITING_CONFIRMATION'; i++) {
      const next = await engine.next({ clientId: 'c1', taskId }, source)
      if (next.action) await engine.report({ taskId, actionId: next.action.actionId, observation: page('https://example.test/', '[0]<button>Buy</button>') as never }, source)
      await engine.kick(taskId)
      view = await engine.status(taskId)
    }
    expect(view.pendingConfirmation?.action).toMatchObject({ type: 'navigate', params: { url: 'http://localhost:9/' } })
    expect(view.pendingConfirmation?.reasonDetails).toEqual([{ code: 'off-plan-site', site: 'localhost:9' }])
    // The approved plan went to the model with every step after it.
    const prompts = calls.slice(1).map((c) => String(c.at(-1)!.content))
    expect(prompts.length).toBeGreaterThan(0)
    for (const p of prompts) expect(p).toContain('<approved_plan>')
    expect(prompts[0]).toContain('3. Stop there')

    const events = await audit.read(taskId)
    const types = events.map((e) => e.type)
    expect(types.indexOf('plan.proposed')).toBeLessThan(types.indexOf('plan.answered'))
    expect(types.indexOf('plan.answered')).toBeLessThan(types.indexOf('action.proposed'))
    expect(events.find((e) => e.type === 'plan.answered')?.data).toMatchObject({ approved: true, edited: true, plan: edited, by: 'c1' })
  })

  it('is canceled when the person does not approve the plan', async () => {
    const { engine, audit } = boot(() => ({ next_goal: 'x', actions: [{ type: 'scroll', direction: 'down' }] }))
    const { taskId } = await engine.start({ goal: 'buy it', clientId: 'c1', startUrl: 'https://example.test/', planFirst: true }, source)
    await engine.kick(taskId)
    expect((await engine.answerPlan({ taskId, approved: false, reason: 'not that shop' }, source)).status).toBe('CANCELED')
    expect((await engine.status(taskId)).task.error).toMatchObject({ code: 'CANCELED', message: 'not that shop' })
    expect((await audit.read(taskId)).find((e) => e.type === 'plan.answered')?.data).toMatchObject({ approved: false, reason: 'not that shop' })
    expect((await audit.read(taskId)).some((e) => e.type === 'action.proposed')).toBe(false)
  })

  it('refuses to plan first a task that runs a script', async () => {
    const { engine } = boot(() => ({}))
    await expect(engine.start({ goal: 'g', script: [{ type: 'observe' }], planFirst: true }, source)).rejects.toMatchObject({ statusCode: 400 })
  })
})

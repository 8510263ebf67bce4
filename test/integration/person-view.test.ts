import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Action, ObservationInput, ScriptStep } from '#protocol'
import { EVIDENCE_GOAL, isEvidenceStep } from '#protocol'
import { agent, PNG } from '../support/agent'
import { answer, goalOf, pageOf, startFakeLlm, type FakeLlm } from '../support/fake-llm'
import { startServer, type TestServer } from '../support/server'

const shot = (label: 'before' | 'after' | 'observation' | 'screenshot') => ({ label, contentType: 'image/png' as const, data: PNG })

const CART: Partial<ObservationInput> = {
  url: 'https://shop.test:8443/cart',
  title: 'Your cart',
  elementTree: '[0]<a href="/">Home</a>\n[1]<input type=text name=coupon placeholder="Coupon code">\n[2]<button>Place order</button>',
  elements: [
    { index: 0, tag: 'a', text: 'Home', fingerprint: 'f0' },
    { index: 1, tag: 'input', attributes: { type: 'text', name: 'coupon', placeholder: 'Coupon code' }, fingerprint: 'f1' },
    { index: 2, tag: 'button', text: 'Place order', fingerprint: 'f2' },
  ],
}

let llm: FakeLlm
let server: TestServer
let a: ReturnType<typeof agent>

beforeAll(async () => {
  llm = await startFakeLlm([
    (r) => {
      const goal = goalOf(r)
      if (goal.includes('[goals]')) {
        if (pageOf(r).includes('Thank you')) return answer([{ type: 'done', success: true, text: 'ordered' }], { next_goal: 'finish' })
        return answer([{ type: 'click', index: 2 }], { next_goal: 'Place the order for the cart' })
      }
      return undefined
    },
    (r) => (goalOf(r).includes('[slow]') ? { text: answer([{ type: 'click', index: 0 }], { next_goal: 'go home' }), delayMs: 1500 } : undefined),
  ])
  server = await startServer({ env: { TANDEM_LLM_BASE_URL: llm.url, TANDEM_LLM_MODEL: 'fake-model' } })
  a = agent(server)
})
afterAll(async () => {
  await server?.close()
  await llm?.close()
})

describe('steps say what they were for, what they touched and what was pictured', () => {
  it('records a script step’s reason as its goal, its target by name, and its screenshots', async () => {
    const { taskId } = await a.start({
      script: [
        { type: 'navigate', url: 'https://shop.test:8443/cart', reason: 'open the cart' },
        { type: 'type', index: 1, text: 'SAVE10', reason: 'apply the coupon' },
        { type: 'click', text: 'Show details' },
      ],
    })
    await a.report(await a.nextAction(taskId), { ...CART, artifacts: [shot('observation')] })
    await a.report(await a.nextAction(taskId), { ...CART, artifacts: [shot('before'), shot('after')] })
    await a.report(await a.nextAction(taskId), CART)
    const view = await a.waitFor(taskId, 'SUCCEEDED')
    const [open, typed, clicked] = view.steps
    expect(open).toMatchObject({ goal: 'open the cart', artifacts: [{ label: 'observation', name: expect.stringMatching(/^0001-observation/) }] })
    expect(open.target).toBeUndefined()
    expect(typed).toMatchObject({ goal: 'apply the coupon', target: 'Coupon code' })
    expect(typed.artifacts?.map((x) => x.label)).toEqual(['before', 'after'])
    // The artifact names are the ones the audit serves.
    const served = await fetch(`${server.url}/api/audit/${taskId}/artifacts/${typed.artifacts![1].name}`, {
      headers: { authorization: `Bearer ${server.token}` },
    })
    expect(served.status).toBe(200)
    expect(clicked).toMatchObject({ target: 'Show details' })
    expect(clicked.goal).toBeUndefined()
    expect(clicked.artifacts).toBeUndefined()
  })

  it('records the model’s next_goal as the goal of the steps it planned', async () => {
    const { taskId } = await a.start({ goal: '[goals] buy what is in the cart' })
    const observe = await a.nextAction(taskId)
    expect(observe.type).toBe('observe')
    await a.report(observe, { ...CART, artifacts: [shot('observation')] })
    // The card's picture is taken for it, with the element in view, whatever the observation brought back.
    const waiting = await a.waitForConfirmation(taskId, { ...CART, artifacts: [shot('screenshot')] })
    expect(waiting.steps.map((s) => s.type)).toEqual(['observe', 'screenshot'])
    expect(waiting.pendingConfirmation).toMatchObject({ goal: 'Place the order for the cart', evidence: { targetText: 'Place order' } })
    await a.confirm(taskId, waiting.pendingConfirmation!.actionId, true)
    await a.report(await a.nextAction(taskId), { url: 'https://shop.test:8443/thanks', title: 'Thanks', elementTree: '[0]<p>Thank you</p>', elements: [] })
    const done = await a.waitFor(taskId, 'SUCCEEDED')
    expect(done.steps.at(-1)).toMatchObject({ type: 'click', goal: 'Place the order for the cart', target: 'Place order' })
  })
})

describe('the picture before a confirmation in an LLM task', () => {
  it('is taken when the observation brought none, and the model is not told about it', async () => {
    const { taskId } = await a.start({ goal: '[goals] buy it, no picture yet' })
    await a.report(await a.nextAction(taskId), CART)
    const waiting = await a.waitForConfirmation(taskId, { ...CART, artifacts: [shot('screenshot')] })
    expect(waiting.pendingConfirmation).toMatchObject({ goal: 'Place the order for the cart', evidence: { screenshot: { label: 'screenshot' } } })
    await a.confirm(taskId, waiting.pendingConfirmation!.actionId, true)
    await a.report(await a.nextAction(taskId), { url: 'https://shop.test:8443/thanks', title: 'Thanks', elementTree: '[0]<p>Thank you</p>', elements: [] })
    const done = await a.waitFor(taskId, 'SUCCEEDED')
    expect(done.steps.map((s) => s.type)).toEqual(['observe', 'screenshot', 'click'])
    expect(done.usage.llmCalls).toBe(2)
    const prompt = llm.requests.filter((r) => goalOf(r).includes('no picture yet')).at(-1)!
    expect(prompt.text).toContain('click: done')
    expect(prompt.text).not.toContain('screenshot: done')
    expect(prompt.text).not.toMatch(/later action.* not run/)
  })
})

describe('confirmations come with evidence', () => {
  const checkout: ScriptStep[] = [
    { type: 'navigate', url: 'https://shop.test:8443/cart' },
    { type: 'click', index: 2, reason: 'place the order' },
    { type: 'done', success: true, text: 'ordered' },
  ]

  it('pictures the page first when the last step took no picture, then asks with that picture', async () => {
    const { taskId } = await a.start({ script: checkout })
    await a.report(await a.nextAction(taskId), CART) // no screenshot came back with the navigation
    const picture = await a.nextAction(taskId)
    expect(picture).toMatchObject({ type: 'screenshot', risk: 'low', requiresConfirmation: false, reason: EVIDENCE_GOAL, seq: 2 })
    expect((await a.status(taskId)).task.status).toBe('RUNNING')
    // The picture is taken on the same page; the page is read again too.
    await a.report(picture, { ...CART, artifacts: [shot('screenshot')] })
    const view = await a.waitFor(taskId, 'WAITING_CONFIRMATION')
    const pending = view.pendingConfirmation!
    expect(pending.action).toMatchObject({ type: 'click', seq: 3, risk: 'high', target: { by: 'index', value: 2, fingerprint: 'f2' } })
    expect(pending.goal).toBe('place the order')
    expect(pending.evidence).toEqual({
      url: 'https://shop.test:8443/cart',
      title: 'Your cart',
      origin: 'https://shop.test:8443',
      targetText: 'Place order',
      screenshot: { label: 'screenshot', name: expect.stringMatching(/^0002-screenshot/) },
    })
    const evidenceStep = view.steps.at(-1)!
    expect(evidenceStep).toMatchObject({ type: 'screenshot', goal: EVIDENCE_GOAL, outcome: 'done' })
    expect(isEvidenceStep(evidenceStep)).toBe(true)

    // The picture was no step of the script: approving runs the click, and the script goes on to its own end.
    await a.confirm(taskId, pending.actionId, true)
    const click = await a.nextAction(taskId)
    expect(click.actionId).toBe(pending.actionId)
    await a.report(click, CART)
    const done = await a.waitFor(taskId, 'SUCCEEDED')
    expect(done.task.result).toEqual({ success: true, text: 'ordered' })
    expect(done.steps.map((s) => s.type)).toEqual(['navigate', 'screenshot', 'click'])

    const events = (await server.api('GET', `/api/audit/${taskId}`)).body.data.events
    const asked = events.find((e: { type: string }) => e.type === 'confirmation.requested')
    expect(asked.data.evidence.screenshot.name).toBe(pending.evidence!.screenshot!.name)
  })

  it('asks without a picture when none can be taken, and the task goes on', async () => {
    const { taskId } = await a.start({ script: checkout })
    // An older picture exists, but from before the navigation finished: it must not stand in for the page now.
    await a.report(await a.nextAction(taskId), { ...CART, artifacts: [shot('before')] })
    const picture = await a.nextAction(taskId)
    expect(picture.type).toBe('screenshot')
    await a.report(picture, { ...CART, status: 'failed', errors: [{ code: 'SCREENSHOT_UNAVAILABLE', message: 'the tab is not visible' }] })
    const view = await a.waitFor(taskId, 'WAITING_CONFIRMATION')
    expect(view.pendingConfirmation?.action).toMatchObject({ type: 'click', risk: 'high' })
    expect(view.pendingConfirmation?.evidence).toEqual({
      url: 'https://shop.test:8443/cart',
      title: 'Your cart',
      origin: 'https://shop.test:8443',
      targetText: 'Place order',
    })
    expect(view.steps.at(-1)).toMatchObject({ type: 'screenshot', outcome: 'failed', goal: EVIDENCE_GOAL })
    await a.confirm(taskId, view.pendingConfirmation!.actionId, true)
    await a.report(await a.nextAction(taskId), CART)
    await a.waitFor(taskId, 'SUCCEEDED')
  })

  it('pictures the element for its card even when the last step brought a picture back, and keeps where it is marked', async () => {
    const { taskId } = await a.start({ script: checkout })
    await a.report(await a.nextAction(taskId), { ...CART, artifacts: [shot('observation')] })
    const picture = await a.nextAction(taskId)
    expect(picture).toMatchObject({ type: 'screenshot', risk: 'low', reason: EVIDENCE_GOAL, target: { by: 'index', value: 2 } })
    const mark = { x: 0.4, y: 0.7, w: 0.12, h: 0.05 }
    await a.report(picture, { ...CART, targetName: 'Place order', artifacts: [{ ...shot('screenshot'), mark }] })
    const view = await a.waitFor(taskId, 'WAITING_CONFIRMATION')
    expect(view.steps.map((s) => s.type)).toEqual(['navigate', 'screenshot'])
    expect(view.pendingConfirmation?.evidence?.screenshot).toMatchObject({ label: 'screenshot', mark, name: expect.stringMatching(/^0002-screenshot/) })
    // The audit keeps the mark with the picture's hash: an export shows what was outlined.
    const events = (await server.api('GET', `/api/audit/${taskId}`)).body.data.events
    const reported = events.find((e: { type: string; data?: { artifacts?: { mark?: unknown }[] } }) => e.type === 'observation' && e.data?.artifacts?.some((x) => x.mark))
    expect(reported?.data.artifacts[0]).toMatchObject({ label: 'screenshot', mark, sha256: expect.any(String) })
  })

  it('pictures the page again after the person had control, whatever the last step brought back', async () => {
    const { taskId } = await a.start({
      script: [
        { type: 'navigate', url: 'https://shop.test:8443/cart' },
        { type: 'click', text: 'Show details' },
        { type: 'click', index: 2, reason: 'place the order' },
      ],
    })
    await a.report(await a.nextAction(taskId), { ...CART, artifacts: [shot('observation')] })
    const details = await a.nextAction(taskId)
    await a.command('pause', taskId, 'takeover: the person clicked in the page')
    await a.report(details, { ...CART, artifacts: [shot('before'), shot('after')] })
    expect((await a.status(taskId)).task.status).toBe('PAUSED')
    await a.command('resume', taskId)
    const picture = await a.nextAction(taskId)
    expect(picture).toMatchObject({ type: 'screenshot', risk: 'low', reason: EVIDENCE_GOAL })
    await a.report(picture, { ...CART, artifacts: [shot('screenshot')] })
    const view = await a.waitFor(taskId, 'WAITING_CONFIRMATION')
    expect(view.pendingConfirmation?.evidence?.screenshot?.name).toMatch(/^0003-screenshot/)
  })

  it('takes a new picture for each risky step when the one before took none', async () => {
    const { taskId } = await a.start({
      script: [
        { type: 'click', text: 'Delete item' },
        { type: 'click', text: 'Delete account' },
      ],
    })
    const first = await a.waitForConfirmation(taskId, { artifacts: [shot('screenshot')] })
    await a.confirm(taskId, first.pendingConfirmation!.actionId, true)
    await a.report(await a.nextAction(taskId))
    const second = await a.waitForConfirmation(taskId, { artifacts: [shot('screenshot')] })
    expect(second.pendingConfirmation?.action.target).toEqual({ by: 'text', value: 'Delete account' })
    expect(second.pendingConfirmation?.evidence?.screenshot?.name).toMatch(/^0003-screenshot/)
    expect(second.steps.map((s) => s.type)).toEqual(['screenshot', 'click', 'screenshot'])
  })
})

describe('thinking', () => {
  it('is true while the planner works on the next decision, and false once it has decided', async () => {
    const { taskId } = await a.start({ goal: '[slow] look around' })
    let observe: Action | null = null
    for (;;) {
      const reply = await a.next(taskId, 2000)
      if (reply.action) {
        observe = reply.action
        break
      }
    }
    expect(observe.type).toBe('observe')
    expect((await a.status(taskId)).thinking).toBe(false)
    await a.report(observe, CART)
    const seen: boolean[] = []
    for (;;) {
      const view = await a.status(taskId)
      seen.push(view.thinking === true)
      if (view.currentAction) break
      await new Promise((r) => setTimeout(r, 50))
    }
    expect(seen).toContain(true)
    const decided = await a.status(taskId)
    expect(decided.thinking).toBe(false)
    expect(decided.currentAction).toMatchObject({ type: 'click' })
  })
})

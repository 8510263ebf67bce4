import { describe, expect, it } from 'vitest'
import type { AuditEvent } from '#protocol'
import { HeldRequest, riskReasonsIn } from '#protocol'
import { buildReplay } from '../../ui/replay/model'
import { describeTarget } from '../../ui/replay/target'
import { describeRequest } from '../../ui/replay/write'

const HASH = 'a'.repeat(64)

/** Events as the engine writes them: seq from 1, one second apart. */
function events(list: { type: string; actionId?: string; data?: Record<string, unknown> }[], taskId = 't_shop'): AuditEvent[] {
  const start = Date.parse('2025-11-02T10:00:00.000Z')
  return list.map((e, i) => ({
    seq: i + 1,
    ts: new Date(start + i * 1000).toISOString(),
    taskId,
    type: e.type,
    ...(e.actionId ? { actionId: e.actionId } : {}),
    data: e.data ?? {},
    prevHash: HASH,
    hash: HASH,
  }))
}

const source = { clientId: 'c_ext', version: '0.1.0', userAgent: 'Chrome' }
/** What every observation event carries besides what a test looks at. */
const observed = { artifacts: [], timing: {}, elementCount: 0, treeChars: 0 }
/** A proposed action as the engine records it. */
const act = (a: Record<string, unknown>) => ({ taskId: 't_shop', risk: 'low', requiresConfirmation: false, params: {}, ...a })
const jpg = (name: string, label: string) => ({ name, label, contentType: 'image/jpeg', bytes: 1000, sha256: 'b'.repeat(64) })

/** An LLM task: search, add to cart, a confirmed order, an extraction, a question and a pause on the way. */
const shop = events([
  { type: 'task.created', data: { goal: 'buy an iPhone 15', mode: 'llm', startUrl: 'http://shop.test/', clientId: 'c_ext', source } },
  { type: 'action.proposed', actionId: 'a1', data: { action: act({ actionId: 'a1', seq: 1, type: 'navigate', params: { url: 'http://shop.test/' }, risk: 'low' }), risk: 'low', reasons: [] } },
  { type: 'action.dispatched', actionId: 'a1', data: { source } },
  { type: 'report.received', actionId: 'a1', data: { source } },
  { type: 'observation', actionId: 'a1', data: { ...observed, status: 'done', url: 'http://shop.test/', title: 'Shop', errors: [], artifacts: [jpg('0001-observation-x.jpg', 'observation')] } },
  {
    type: 'planner.decision',
    data: {
      planner: 'llm',
      model: 'qwen-max',
      decision: { kind: 'act', actions: [{ type: 'type', index: 1, text: 'iPhone 15', submit: true }] },
      usage: { llmCalls: 1, promptTokens: 1200, completionTokens: 80, totalTokens: 1280, latencyMs: 900 },
      output: { thinking: 'The search box is [1].', next_goal: 'Search for the phone', actions: [] },
    },
  },
  {
    type: 'action.proposed',
    actionId: 'a2',
    data: {
      action: act({ actionId: 'a2', seq: 2, type: 'type', target: { by: 'index', value: 1 }, params: { text: 'iPhone 15', submit: true }, risk: 'low' }),
      risk: 'low',
      reasons: [],
      element: { index: 1, tag: 'input', attributes: { type: 'search', placeholder: 'Search products' } },
    },
  },
  { type: 'action.dispatched', actionId: 'a2', data: { source } },
  { type: 'observation', actionId: 'a2', data: { ...observed, status: 'done', url: 'http://shop.test/search?q=iphone', title: 'Results', errors: [], artifacts: [jpg('0002-before-a.jpg', 'before'), jpg('0002-after-b.jpg', 'after')] } },
  { type: 'planner.decision', data: { planner: 'llm', decision: { kind: 'ask', question: 'Which colour?' }, usage: { llmCalls: 1, promptTokens: 1000, completionTokens: 20, totalTokens: 1020, latencyMs: 500 } } },
  { type: 'user.asked', data: { question: 'Which colour?' } },
  { type: 'task.status', data: { from: 'RUNNING', to: 'WAITING_USER' } },
  { type: 'user.answered', data: { question: 'Which colour?', answer: 'Blue', source } },
  { type: 'task.paused', data: { from: 'RUNNING', reason: 'the person took over', source } },
  { type: 'task.resumed', data: { to: 'RUNNING', reason: 'handed back', source } },
  {
    type: 'planner.decision',
    data: { planner: 'llm', decision: { kind: 'act', actions: [{ type: 'click', index: 7 }] }, usage: { llmCalls: 1, promptTokens: 1500, completionTokens: 60, totalTokens: 1560, latencyMs: 1100 }, output: { next_goal: 'Place the order' } },
  },
  {
    type: 'action.proposed',
    actionId: 'a3',
    data: {
      action: act({ actionId: 'a3', seq: 3, type: 'click', target: { by: 'index', value: 7 }, params: {}, risk: 'high' }),
      risk: 'high',
      reasons: ['click on “Place order” (purchase)'],
      element: { index: 7, tag: 'button', text: 'Place order' },
    },
  },
  { type: 'confirmation.requested', actionId: 'a3', data: { risk: 'high', reasons: ['click on “Place order” (purchase)'] } },
  { type: 'task.status', data: { from: 'RUNNING', to: 'WAITING_CONFIRMATION' } },
  { type: 'confirmation.answered', actionId: 'a3', data: { approved: true, reason: 'looks right', by: 'c_ext', at: '2025-11-02T10:00:30.000Z', source } },
  { type: 'action.dispatched', actionId: 'a3', data: { source } },
  { type: 'observation', actionId: 'a3', data: { ...observed, status: 'done', url: 'http://shop.test/done', title: 'Order confirmed', errors: [], artifacts: [jpg('0003-before-c.jpg', 'before'), jpg('0003-after-d.jpg', 'after')] } },
  { type: 'action.proposed', actionId: 'a4', data: { action: act({ actionId: 'a4', seq: 4, type: 'extract', params: { instruction: 'the order number' }, risk: 'low' }), risk: 'low', reasons: [] } },
  { type: 'action.dispatched', actionId: 'a4', data: { source } },
  { type: 'observation', actionId: 'a4', data: { ...observed, status: 'failed', url: 'http://shop.test/done', title: 'Order confirmed', errors: [{ code: 'TIMEOUT', message: 'no answer in 10 s' }] } },
  { type: 'some.future.event', data: { anything: 1 } },
  { type: 'planner.decision', data: { planner: 'llm', decision: { kind: 'done', success: true, text: 'Ordered. Order #123.' }, usage: { llmCalls: 1, promptTokens: 900, completionTokens: 30, totalTokens: 930, latencyMs: 400 } } },
  { type: 'task.status', data: { from: 'RUNNING', to: 'SUCCEEDED', reason: 'Ordered. Order #123.' } },
  { type: 'task.finished', data: { status: 'SUCCEEDED', result: { success: true, text: 'Ordered. Order #123.', data: { order: 123 } } } },
])

describe('buildReplay', () => {
  const replay = buildReplay(shop)

  it('takes the goal, status, result and client from the task events', () => {
    expect(replay).toMatchObject({
      taskId: 't_shop',
      goal: 'buy an iPhone 15',
      mode: 'llm',
      startUrl: 'http://shop.test/',
      clientId: 'c_ext',
      status: 'SUCCEEDED',
      result: { success: true, text: 'Ordered. Order #123.', data: { order: 123 } },
      createdAt: shop[0].ts,
      finishedAt: shop.at(-1)!.ts,
    })
  })

  it('makes one step per proposed action, with its goal, target in words, detail and outcome', () => {
    expect(replay.steps.map((s) => [s.seq, s.type, s.outcome])).toEqual([
      [1, 'navigate', 'done'],
      [2, 'type', 'done'],
      [3, 'click', 'done'],
      [4, 'extract', 'failed'],
    ])
    const [navigate, type, click, extract] = replay.steps
    expect(navigate.detail).toBe('http://shop.test/')
    expect(navigate.goal).toBeUndefined()
    expect(navigate.decision).toBeUndefined()
    expect(type).toMatchObject({ target: '“Search products” (search field)', detail: '"iPhone 15" ⏎', goal: 'Search for the phone' })
    expect(type.decision).toMatchObject({ model: 'qwen-max', usage: { totalTokens: 1280 }, thinking: 'The search box is [1].' })
    expect(click).toMatchObject({ target: '“Place order” (button)', goal: 'Place the order', risk: 'high', reasons: ['click on “Place order” (purchase)'] })
    expect(extract.observation).toMatchObject({ status: 'failed', errors: [{ code: 'TIMEOUT', message: 'no answer in 10 s' }] })
  })

  it('records the confirmation: asked when, answered by whom, when and why', () => {
    const click = replay.steps[2]
    expect(click.confirmation).toEqual({
      requestedAt: shop[17].ts,
      reasons: ['click on “Place order” (purchase)'],
      answer: { approved: true, by: 'c_ext', at: '2025-11-02T10:00:30.000Z', reason: 'looks right', inPanel: true },
    })
    expect(click.dispatchedAt).toBe(shop[20].ts)
    expect(replay.steps[0].confirmation).toBeUndefined()
  })

  it('sorts screenshots into before, after and the rest', () => {
    const [navigate, type, click] = replay.steps
    expect([navigate.before, navigate.after]).toEqual([undefined, undefined])
    expect(navigate.screenshots).toEqual([{ name: '0001-observation-x.jpg', label: 'observation' }])
    expect(type).toMatchObject({ before: { name: '0002-before-a.jpg' }, after: { name: '0002-after-b.jpg' }, screenshots: [] })
    expect(click.before?.name).toBe('0003-before-c.jpg')
  })

  it('adds up the LLM usage of every decision and counts what happened', () => {
    expect(replay.totals).toEqual({
      steps: 4,
      done: 3,
      failed: 1,
      rejected: 0,
      confirmations: 1,
      approved: 1,
      screenshots: 5,
      errors: 1,
      usage: { llmCalls: 4, promptTokens: 4600, completionTokens: 190, totalTokens: 4790, latencyMs: 2900 },
      durationMs: (shop.length - 1) * 1000,
    })
  })

  it('keeps questions with their answers and pauses with their resumption, in timeline order', () => {
    expect(replay.questions).toEqual([{ question: 'Which colour?', askedAt: shop[10].ts, answer: 'Blue', answeredAt: shop[12].ts }])
    expect(replay.pauses).toEqual([{ at: shop[13].ts, from: 'RUNNING', reason: 'the person took over', resumedAt: shop[14].ts, resumeReason: 'handed back' }])
    expect(replay.timeline.map((i) => i.kind)).toEqual(['step', 'decision', 'step', 'decision', 'question', 'pause', 'decision', 'step', 'step', 'unknown', 'decision'])
  })

  it('keeps an event type it does not know in the timeline, and counts it, instead of failing on it', () => {
    expect(replay.unknown).toEqual({ 'some.future.event': 1 })
    expect(replay.malformed).toEqual({})
    expect(replay.timeline.find((i) => i.kind === 'unknown')).toEqual({ kind: 'unknown', event: { at: shop[25].ts, seq: 26, type: 'some.future.event' } })
  })
})

describe('buildReplay on other shapes of task', () => {
  it('shows a rejected confirmation as a rejected step and the task failure', () => {
    const replay = buildReplay(
      events([
        { type: 'task.created', data: { goal: 'checkout', mode: 'script', source } },
        { type: 'planner.decision', data: { planner: 'script', decision: { kind: 'act', actions: [] } } },
        {
          type: 'action.proposed',
          actionId: 'b1',
          data: { action: act({ actionId: 'b1', seq: 1, type: 'click', target: { by: 'text', value: 'Place order' }, params: {}, reason: 'submit the order', risk: 'high' }), risk: 'high', reasons: ['purchase'] },
        },
        { type: 'confirmation.requested', actionId: 'b1', data: { risk: 'high', reasons: ['purchase'] } },
        {
          type: 'confirmation.answered',
          actionId: 'b1',
          data: { approved: false, reason: 'not today', by: 'api', at: '2025-11-02T10:00:04.000Z', source: { ...source, principal: { kind: 'owner', via: 'console' } } },
        },
        { type: 'planner.decision', data: { planner: 'script', decision: { kind: 'fail', code: 'REJECTED', message: 'The person rejected step 1' } } },
        { type: 'task.finished', data: { status: 'FAILED', error: { code: 'REJECTED', message: 'The person rejected step 1' } } },
      ]),
    )
    const [step] = replay.steps
    expect(step).toMatchObject({ target: '“Place order”', goal: 'submit the order', outcome: 'rejected', confirmation: { answer: { approved: false, by: 'api', reason: 'not today', principal: { kind: 'owner', via: 'console' } } } })
    expect(step.dispatchedAt).toBeUndefined()
    expect(replay).toMatchObject({ status: 'FAILED', error: { code: 'REJECTED', message: 'The person rejected step 1' } })
    expect(replay.totals).toMatchObject({ rejected: 1, confirmations: 1, approved: 0, usage: { llmCalls: 0 } })
    expect(replay.timeline.at(-1)).toMatchObject({ kind: 'decision', decision: { kind: 'fail', error: 'The person rejected step 1' } })
  })

  it('keeps typed secrets hidden, a cancel in the timeline and a step still in flight as pending', () => {
    const replay = buildReplay(
      events([
        { type: 'task.created', data: { goal: 'log in', mode: 'script', source } },
        { type: 'action.proposed', actionId: 'c1', data: { action: act({ actionId: 'c1', seq: 1, type: 'type', target: { by: 'selector', value: 'input[name=password]' }, params: { text: '[redacted]', sensitive: true }, risk: 'medium' }), risk: 'medium', reasons: [] } },
        { type: 'action.dispatched', actionId: 'c1', data: { source } },
        { type: 'queue.dropped', data: { reason: 'the page changed', dropped: [{ type: 'click' }, { type: 'click' }] } },
        { type: 'task.canceled', data: { reason: 'wrong account', source: { ...source, principal: { kind: 'agent', tokenId: 't1', name: 'Cursor' } } } },
        { type: 'task.finished', data: { status: 'CANCELED', error: { code: 'CANCELED', message: 'wrong account' } } },
      ]),
    )
    expect(replay.steps[0]).toMatchObject({ detail: '••••••', risk: 'medium', outcome: 'pending' })
    // A selector is not shown as a name: the step is named once the page said what the element was.
    expect(replay.steps[0]!.target).toBeUndefined()
    expect(replay.timeline.map((i) => i.kind)).toEqual(['step', 'dropped', 'canceled'])
    expect(replay.timeline[2]).toMatchObject({ kind: 'canceled', by: { kind: 'agent', name: 'Cursor' } })
    expect(replay.canceledBy).toMatchObject({ name: 'Cursor' })
    expect(replay.timeline[1]).toMatchObject({ count: 2, reason: 'the page changed' })
    expect(replay.status).toBe('CANCELED')
  })

  it('survives malformed data and an empty log: a known event whose data is not its shape is shown as unreadable', () => {
    expect(buildReplay([])).toMatchObject({ taskId: '', goal: '', steps: [], totals: { steps: 0, durationMs: 0 } })
    const replay = buildReplay(
      events([
        { type: 'task.created', data: { goal: 42 } },
        { type: 'action.proposed', actionId: 'd1', data: { action: 'not an object', risk: 'extreme', reasons: 'nope' } },
        { type: 'observation', actionId: 'd1', data: { artifacts: [{ label: 'after' }, null, { name: 'ok.png' }], errors: [{ message: 'no code' }] } },
        { type: 'observation', actionId: 'unknown-action', data: { ...observed, status: 'done', url: 'http://shop.test/', title: 'Shop', errors: [] } },
        { type: 'confirmation.answered', data: { approved: true } },
        { type: 'task.finished', data: { status: 'SUCCEEDED' } },
      ]),
    )
    expect(replay).toMatchObject({ goal: '', steps: [], status: 'SUCCEEDED' })
    expect(replay.malformed).toEqual({ 'task.created': 1, 'action.proposed': 1, observation: 1, 'confirmation.answered': 1 })
    expect(replay.unknown).toEqual({})
    const unreadable = replay.timeline.filter((i) => i.kind === 'unknown').map((i) => i.event)
    expect(unreadable.map((e) => e.type)).toEqual(['task.created', 'action.proposed', 'observation', 'confirmation.answered'])
    expect(unreadable[0].problem).toMatch(/^data\.goal: /)
  })
})

describe('buildReplay: requests the write barrier held', () => {
  const request = {
    method: 'POST',
    url: 'https://shop.example/api/orders',
    origin: 'https://shop.example',
    path: '/api/orders',
    kind: 'fetch',
    fields: [{ name: 'items' }, { name: 'address', value: '••••' }],
  }
  const replay = buildReplay(
    events([
      { type: 'write.held', data: { request, reason: 'method', tabId: 7, stepActionId: 'a9' } },
      { type: 'write.released', data: { request, by: 'c_ext', at: '2025-11-02T10:00:05.000Z' } },
      { type: 'write.refused', data: { request, why: 'rejected', by: 'c_ext' } },
      { type: 'write.dropped', data: { request: { ...request, url: 'https://stats.example/c', origin: 'https://stats.example', path: '/c', kind: 'beacon', fields: [] }, reason: 'telemetry-host' } },
      { type: 'write.refused', data: { request, why: 'misplaced' } },
      { type: 'write.allowed', data: { request } },
    ]),
  )

  it('puts each in the timeline with its outcome, who decided and why', () => {
    const writes = replay.timeline.flatMap((i) => (i.kind === 'write' ? [i.write] : []))
    expect(writes.map((w) => [w.outcome, w.reason, w.by, w.actionId])).toEqual([
      ['held', 'method', undefined, 'a9'],
      ['released', undefined, 'c_ext', undefined],
      ['refused', 'rejected', 'c_ext', undefined],
      ['dropped', 'telemetry-host', undefined, undefined],
      ['allowed', undefined, undefined, undefined],
    ])
    expect(writes[1].at).toBe('2025-11-02T10:00:05.000Z')
    expect(replay.malformed).toEqual({ 'write.refused': 1 })
  })

  it('names a request by method, site, path and the fields it carries, never their values', () => {
    expect(describeRequest(HeldRequest.parse(request))).toBe('POST shop.example/api/orders (items, address)')
    expect(describeRequest(HeldRequest.parse({ ...request, operation: { type: 'mutation', name: 'PlaceOrder' } }))).toBe('POST shop.example/api/orders (mutation PlaceOrder)')
    expect(describeRequest(HeldRequest.parse({ ...request, fields: [] }))).toBe('POST shop.example/api/orders')
  })
})

describe('buildReplay: what went without asking, and the rules that let it', () => {
  const request = { method: 'POST', url: 'https://shop.example/api/cart/41/items', origin: 'https://shop.example', path: '/api/cart/41/items', kind: 'fetch', fields: [] }
  const rule = { site: 'https://shop.example', method: 'POST', path: '/api/cart/*/items' }
  const cart = { ...request, url: 'https://shop.example/cart/change.js', path: '/cart/change.js' }
  const replay = buildReplay(
    events([
      { type: 'action.proposed', actionId: 'r1', data: { action: act({ actionId: 'r1', seq: 1, type: 'release', risk: 'high' }), risk: 'high', reasons: ['held'] } },
      { type: 'confirmation.answered', actionId: 'r1', data: { approved: true, by: 'c_ext', at: '2025-11-02T10:00:02.000Z', source, forTask: true, allowWrites: [rule], scope: 'task' } },
      { type: 'write.allowed', actionId: 'a2', data: { request, rule, scope: 'task' } },
      { type: 'write.allowed', actionId: 'a2', data: { request } },
      { type: 'write.harmless', actionId: 'a2', data: { request: cart, kind: 'cart' } },
    ]),
  )

  it('keeps the rules an approval made with their scope, and which rule let each write through', () => {
    expect(replay.steps[0].confirmation?.answer?.allowed).toEqual({ scope: 'task', rules: [rule] })
    const writes = replay.timeline.flatMap((i) => (i.kind === 'write' ? [i.write] : []))
    expect(writes.map((w) => [w.outcome, w.scope, w.rule, w.kind])).toEqual([
      ['allowed', 'task', rule, undefined],
      ['allowed', undefined, undefined, undefined],
      ['harmless', undefined, undefined, 'cart'],
    ])
    expect(replay.unknown).toEqual({})
  })

  it('reads an older approval with "always" as a site rule', () => {
    const old = buildReplay(
      events([
        { type: 'action.proposed', actionId: 'r1', data: { action: act({ actionId: 'r1', seq: 1, type: 'release', risk: 'high' }), risk: 'high', reasons: ['held'] } },
        { type: 'confirmation.answered', actionId: 'r1', data: { approved: true, by: 'c_ext', at: '2025-11-02T10:00:02.000Z', source, always: true, allowWrites: [rule] } },
      ]),
    )
    expect(old.steps[0].confirmation?.answer?.allowed).toEqual({ scope: 'site', rules: [rule] })
  })
})

describe('buildReplay: risk reasons as data', () => {
  const order = { code: 'label-high', label: 'Place order', kind: 'payment' }
  const english = 'clicks "Place order", which looks like a purchase or payment'
  const script = (proposed: Record<string, unknown>, requested?: Record<string, unknown>) =>
    buildReplay(
      events([
        { type: 'action.proposed', actionId: 'r1', data: { action: act({ actionId: 'r1', seq: 1, type: 'click', risk: 'high' }), risk: 'high', ...proposed } },
        ...(requested ? [{ type: 'confirmation.requested', actionId: 'r1', data: { risk: 'high', ...requested } }] : []),
        { type: 'confirmation.answered', actionId: 'r1', data: { approved: true, by: 'api', at: '2025-11-02T10:00:02.000Z', source } },
      ]),
    ).steps[0]

  it('keeps the details of the step and its confirmation beside the English sentences', () => {
    const step = script({ reasons: [english], reasonDetails: [order] }, { reasons: [english], reasonDetails: [order] })
    expect(step).toMatchObject({ reasons: [english], reasonDetails: [order] })
    expect(step.confirmation).toMatchObject({ reasons: [english], reasonDetails: [order] })
    expect(riskReasonsIn('zh-CN', step.confirmation!.reasons, step.confirmation!.reasonDetails)).toEqual(['点击“Place order”，看起来像购买或付款'])
  })

  it('takes the step\'s details when the confirmation event carries no reasons, or was never written', () => {
    expect(script({ reasons: [english], reasonDetails: [order] }, {}).confirmation).toMatchObject({ reasons: [english], reasonDetails: [order] })
    expect(script({ reasons: [english], reasonDetails: [order] }).confirmation).toMatchObject({ reasons: [english], reasonDetails: [order] })
  })

  it('keeps only the English sentences from an older audit, or details it cannot read in full', () => {
    for (const reasonDetails of [undefined, [], [{ code: 'a-reason-from-the-future' }], [order, order], 'nope']) {
      const step = script({ reasons: [english], reasonDetails }, { reasons: [english], reasonDetails })
      expect(step.reasonDetails).toBeUndefined()
      expect(step.confirmation).toEqual(expect.objectContaining({ reasons: [english] }))
      expect(step.confirmation?.reasonDetails).toBeUndefined()
      expect(riskReasonsIn('zh-CN', step.confirmation!.reasons, step.confirmation!.reasonDetails)).toEqual([english])
    }
  })
})

describe('describeTarget', () => {
  it('names an element by its text, label or placeholder before its selector or index', () => {
    expect(describeTarget({ by: 'index', value: 3 }, { tag: 'a', text: '  Proceed\n to checkout ' })).toBe('“Proceed to checkout” (a)')
    expect(describeTarget({ by: 'index', value: 3 }, { tag: 'button', attributes: { 'aria-label': 'Add iPhone 15 to cart' } })).toBe('“Add iPhone 15 to cart” (button)')
    expect(describeTarget({ by: 'index', value: 9 }, { tag: 'div' })).toBe('div #9')
    expect(describeTarget({ by: 'role', value: 'button' })).toBe('button')
    // A recorded step's role target is said by its name; a selector is no name at all.
    expect(describeTarget({ by: 'role', value: 'button:Send message' })).toBe('“Send message”')
    expect(describeTarget({ by: 'selector', value: '#send' })).toBeUndefined()
    expect(describeTarget({ by: 'index', value: 4 })).toBe('#4')
    expect(describeTarget(undefined)).toBeUndefined()
    expect(describeTarget({ by: 'text', value: 'x'.repeat(200) })!.length).toBeLessThanOrEqual(82)
  })
})

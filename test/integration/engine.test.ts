import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ScriptStep } from '#protocol'
import { agent } from '../support/agent'
import { CANARIES } from '../support/canaries'
import { startServer, type TestServer } from '../support/server'

let server: TestServer
let a: ReturnType<typeof agent>
beforeAll(async () => {
  server = await startServer()
  a = agent(server)
})
afterAll(() => server.close())

const shopping: ScriptStep[] = [
  { type: 'navigate', url: 'http://127.0.0.1:9/shop' },
  { type: 'type', selector: 'input[name=q]', text: 'iPhone 15' },
  { type: 'click', text: 'Add to cart' },
]

describe('script tasks', () => {
  it('runs start → next → report … → SUCCEEDED, in order', async () => {
    const { taskId, status } = await a.start({ script: shopping })
    expect(status).toBe('RUNNING')
    const seen: string[] = []
    for (let i = 0; i < shopping.length; i++) {
      const action = await a.nextAction(taskId)
      expect(action.seq).toBe(i + 1)
      seen.push(action.type)
      expect((await a.report(action)).accepted).toBe(true)
    }
    expect(seen).toEqual(['navigate', 'type', 'click'])
    const view = await a.waitFor(taskId, 'SUCCEEDED')
    expect(view.steps.map((s) => s.outcome)).toEqual(['done', 'done', 'done'])
    expect(view.task.result?.success).toBe(true)
    const after = await a.next(taskId)
    expect(after).toMatchObject({ taskId, status: 'SUCCEEDED', action: null })
  })

  it('hands the same undelivered or unreported action to every poll, with the same actionId', async () => {
    const { taskId } = await a.start({ script: shopping })
    const first = await a.nextAction(taskId)
    const again = await a.nextAction(taskId)
    expect(again).toEqual(first)
    const concurrent = await Promise.all(Array.from({ length: 12 }, () => a.next(taskId, 2000)))
    expect(new Set(concurrent.map((r) => r.action?.actionId))).toEqual(new Set([first.actionId]))
  })

  it('targets by selector and by text, never inventing an index', async () => {
    const { taskId } = await a.start({ script: shopping.slice(1) })
    const typed = await a.nextAction(taskId)
    expect(typed.target).toEqual({ by: 'selector', value: 'input[name=q]' })
    expect(typed.params).toMatchObject({ text: 'iPhone 15' })
    await a.report(typed)
    const clicked = await a.nextAction(taskId)
    expect(clicked.target).toEqual({ by: 'text', value: 'Add to cart' })
  })

  it('opens startUrl first when one is given', async () => {
    const { taskId } = await a.start({ startUrl: 'http://127.0.0.1:9/start', script: [{ type: 'observe' }] })
    const first = await a.nextAction(taskId)
    expect(first).toMatchObject({ type: 'navigate', params: { url: 'http://127.0.0.1:9/start' } })
  })

  it('a failed step fails a script task with the reason', async () => {
    const { taskId } = await a.start({ script: shopping })
    const action = await a.nextAction(taskId)
    await a.report(action, { status: 'failed', errors: [{ code: 'TARGET_NOT_FOUND', message: 'no such button' }] })
    const view = await a.waitFor(taskId, 'FAILED')
    expect(view.task.error).toMatchObject({ code: 'TARGET_NOT_FOUND' })
    expect(view.task.error?.message).toContain('no such button')
  })

  it('runs done and ask_user steps of a script', async () => {
    const { taskId } = await a.start({
      script: [
        { type: 'ask_user', question: 'Which size?' },
        { type: 'done', success: true, text: 'finished early' },
      ],
    })
    const waiting = await a.waitFor(taskId, 'WAITING_USER')
    expect(waiting.task.question).toBe('Which size?')
    expect(['RUNNING', 'SUCCEEDED']).toContain((await a.answer(taskId, 'M')).status)
    const done = await a.waitFor(taskId, 'SUCCEEDED')
    expect(done.task.result).toEqual({ success: true, text: 'finished early' })
  })
})

describe('high-risk actions', () => {
  const checkout: ScriptStep[] = [
    { type: 'navigate', url: 'http://127.0.0.1:9/cart' },
    { type: 'click', text: 'Place order' },
  ]

  async function toConfirmation() {
    const { taskId } = await a.start({ script: checkout })
    await a.report(await a.nextAction(taskId))
    const view = await a.waitForConfirmation(taskId)
    return { taskId, view }
  }

  it('waits for the person, and is never handed out before approval', async () => {
    const { taskId, view } = await toConfirmation()
    const pending = view.pendingConfirmation!
    expect(pending.risk).toBe('high')
    expect(pending.reasons.length).toBeGreaterThan(0)
    expect(pending.action.requiresConfirmation).toBe(true)
    const poll = await a.next(taskId, 300)
    expect(poll).toMatchObject({ status: 'WAITING_CONFIRMATION', action: null })
    const early = await server.api('POST', '/api/agent/report', {
      taskId,
      actionId: pending.actionId,
      observation: { status: 'done', url: 'x', errors: [] },
    })
    expect(early.status).toBe(409)
    expect(early.body.error.code).toBe('CONFLICT')
  })

  it('is re-delivered with the confirmation once approved, then finishes', async () => {
    const { taskId, view } = await toConfirmation()
    const { actionId } = view.pendingConfirmation!
    expect((await a.confirm(taskId, actionId, true)).status).toBe('RUNNING')
    const action = await a.nextAction(taskId)
    expect(action.actionId).toBe(actionId)
    expect(action.confirmation).toMatchObject({ approved: true, by: expect.any(String), at: expect.any(String) })
    await a.report(action)
    await a.waitFor(taskId, 'SUCCEEDED')
  })

  it('a rejection stops a script task as FAILED with the reason', async () => {
    const { taskId, view } = await toConfirmation()
    await a.confirm(taskId, view.pendingConfirmation!.actionId, false, 'wrong address')
    const failed = await a.waitFor(taskId, 'FAILED')
    expect(failed.task.error?.message).toContain('wrong address')
    expect(failed.steps.at(-1)).toMatchObject({ outcome: 'rejected', note: 'wrong address' })
  })

  it('refuses a confirmation for another action or a task that is not waiting', async () => {
    const { taskId } = await toConfirmation()
    const wrong = await server.api('POST', '/api/agent/confirm', { taskId, actionId: 'a_nope', approved: true })
    expect(wrong.status).toBe(409)
    const { taskId: running } = await a.start({ script: shopping })
    const notWaiting = await server.api('POST', '/api/agent/confirm', { taskId: running, actionId: 'a_nope', approved: true })
    expect(notWaiting.status).toBe(409)
  })

  it('asks the person when the extension finds the real element riskier (CONFIRMATION_REQUIRED)', async () => {
    const { taskId } = await a.start({ script: [{ type: 'press', keys: 'Enter' }] })
    const action = await a.nextAction(taskId)
    expect(action.requiresConfirmation).toBe(false)
    await a.report(action, { status: 'failed', errors: [{ code: 'CONFIRMATION_REQUIRED', message: 'this submits a form' }] })
    const view = await a.waitForConfirmation(taskId)
    expect(view.pendingConfirmation?.action).toMatchObject({ type: 'press', risk: 'high', requiresConfirmation: true })
  })
})

describe('reports', () => {
  it('acknowledges a repeated report as a duplicate and never advances twice', async () => {
    const { taskId } = await a.start({ script: shopping })
    const first = await a.nextAction(taskId)
    expect(await a.report(first)).toMatchObject({ accepted: true, duplicate: false })
    const again = await Promise.all([a.report(first), a.report(first), a.report(first)])
    for (const r of again) expect(r).toMatchObject({ accepted: true, duplicate: true })
    const second = await a.nextAction(taskId)
    expect(second.seq).toBe(2)
    expect((await a.status(taskId)).steps).toHaveLength(1)
  })

  it('refuses a report for an action that is not in flight', async () => {
    const { taskId } = await a.start({ script: shopping })
    await a.nextAction(taskId)
    const stale = await server.api('POST', '/api/agent/report', {
      taskId,
      actionId: 'a_not_this_one',
      observation: { status: 'done', url: 'http://x', errors: [] },
    })
    expect(stale.status).toBe(409)
    expect(stale.body.error).toMatchObject({ code: 'CONFLICT', details: { inFlight: expect.any(String) } })
  })

  it('concurrent reports of the same action apply once', async () => {
    const { taskId } = await a.start({ script: shopping })
    const action = await a.nextAction(taskId)
    const replies = await Promise.all(Array.from({ length: 8 }, () => a.report(action)))
    expect(replies.filter((r) => !r.duplicate)).toHaveLength(1)
    expect((await a.status(taskId)).steps).toHaveLength(1)
  })

  it('a site without permission waits for the person, then runs the same step again', async () => {
    const { taskId } = await a.start({ script: shopping })
    const first = await a.nextAction(taskId)
    await a.report(first, { status: 'failed', url: 'http://shop.test/', errors: [{ code: 'PERMISSION_DENIED', message: 'not granted' }] })
    const view = await a.waitFor(taskId, 'WAITING_USER')
    expect(view.task.question).toContain('http://shop.test')
    await a.answer(taskId, 'authorised')
    const retry = await a.nextAction(taskId)
    expect(retry.actionId).not.toBe(first.actionId)
    expect(retry).toMatchObject({ type: first.type, params: first.params })
  })
})

describe('pause, resume, cancel', () => {
  it('pauses delivery and resumes with the same action', async () => {
    const { taskId } = await a.start({ script: shopping })
    const action = await a.nextAction(taskId)
    expect((await a.command('pause', taskId, 'I will do this part')).status).toBe('PAUSED')
    expect(await a.next(taskId, 200)).toMatchObject({ status: 'PAUSED', action: null })
    // The action already handed out may still finish; its result is kept while paused.
    expect((await a.report(action)).status).toBe('PAUSED')
    expect((await a.command('resume', taskId)).status).toBe('RUNNING')
    const second = await a.nextAction(taskId)
    expect(second.seq).toBe(2)
  })

  it('resumes into the confirmation it was waiting for', async () => {
    const { taskId } = await a.start({ script: [{ type: 'click', text: 'Delete account' }] })
    await a.waitForConfirmation(taskId)
    await a.command('pause', taskId)
    expect((await a.command('resume', taskId)).status).toBe('WAITING_CONFIRMATION')
  })

  it('cancels, after which nothing is handed out and nothing more is allowed', async () => {
    const { taskId } = await a.start({ script: shopping })
    await a.nextAction(taskId)
    expect((await a.command('cancel', taskId, 'changed my mind')).status).toBe('CANCELED')
    expect(await a.next(taskId, 200)).toMatchObject({ status: 'CANCELED', action: null })
    for (const name of ['pause', 'resume', 'cancel'] as const) {
      const res = await server.api('POST', `/api/agent/${name}`, { taskId })
      expect(res.status).toBe(409)
      expect(res.body.error.code).toBe('CONFLICT')
    }
    expect((await a.status(taskId)).task.status).toBe('CANCELED')
  })

  it('refuses illegal moves without changing anything', async () => {
    const { taskId } = await a.start({ script: shopping })
    await a.nextAction(taskId)
    const before = await a.status(taskId)
    for (const [path, body] of [
      ['/api/agent/resume', { taskId }],
      ['/api/agent/answer', { taskId, answer: 'x' }],
      ['/api/agent/confirm', { taskId, actionId: before.currentAction!.actionId, approved: true }],
    ] as const) {
      const res = await server.api('POST', path, body)
      expect(res.status, path).toBe(409)
    }
    expect(await a.status(taskId)).toEqual(before)
  })
})

describe('polling', () => {
  it('long-polls and answers as soon as an action is ready', async () => {
    const b = agent(server, 'client_longpoll')
    const started = Date.now()
    const poll = b.next(undefined, 10_000)
    await new Promise((r) => setTimeout(r, 300))
    const { taskId } = await b.start({ script: shopping })
    const reply = await poll
    expect(reply.taskId).toBe(taskId)
    expect(reply.action?.type).toBe('navigate')
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('returns null after waitMs when there is no work', async () => {
    const idle = agent(server, 'client_idle')
    const started = Date.now()
    expect(await idle.next(undefined, 400)).toEqual({ taskId: null, status: null, action: null })
    expect(Date.now() - started).toBeGreaterThanOrEqual(380)
  })

  it('serves a client its oldest task and keeps others off it', async () => {
    const c = agent(server, 'client_owner')
    const { taskId } = await c.start({ script: shopping })
    expect((await c.next(undefined, 1000)).taskId).toBe(taskId)
    const other = await server.api('POST', '/api/agent/next', { clientId: 'client_intruder', taskId })
    expect(other.status).toBe(409)
  })

  it('gives a task started without a client to the most recently seen one', async () => {
    const recent = agent(server, 'client_recent')
    await recent.next(undefined, 0)
    const { taskId } = await recent.start({ script: shopping, clientId: null })
    expect((await recent.status(taskId)).task.clientId).toBe('client_recent')
  })

  it('lists tasks newest first', async () => {
    const res = await server.api('GET', '/api/agent/tasks')
    expect(res.status).toBe(200)
    const times = res.body.data.map((t: { createdAt: string }) => t.createdAt)
    expect(times).toEqual([...times].sort().reverse())
  })
})

describe('without an LLM', () => {
  it('refuses a goal-only task with LLM_NOT_CONFIGURED naming the variables', async () => {
    const res = await server.api('POST', '/api/agent/start', { goal: 'buy milk' })
    expect(res.status).toBe(503)
    expect(res.body.error.code).toBe('LLM_NOT_CONFIGURED')
    expect(res.body.error.message).toContain('TANDEM_LLM_BASE_URL')
    expect(res.body.error.message).toContain('TANDEM_LLM_MODEL')
  })
})

describe('credentials', () => {
  it('keeps a typed password out of the audit, the stored observation and the status', async () => {
    const password = CANARIES.password
    const { taskId } = await a.start({
      script: [
        { type: 'type', selector: 'input[type=password]', text: password },
        { type: 'click', text: 'Continue' },
      ],
    })
    const view = await a.waitForConfirmation(taskId)
    expect(JSON.stringify(view)).not.toContain(password)
    await a.confirm(taskId, view.pendingConfirmation!.actionId, true)
    const typing = await a.nextAction(taskId)
    expect(typing.params).toMatchObject({ text: password, sensitive: true })
    // An extension that slipped: the value shows up in what it reports.
    await a.report(typing, { visibleTextSnippet: `Your password ${password} is strong`, elementTree: `[0]<input type=text value="${password}">` })
    await a.report(await a.nextAction(taskId))
    await a.waitFor(taskId, 'SUCCEEDED')
    const audit = await server.api('GET', `/api/audit/${taskId}`)
    expect(audit.body.data.events.length).toBeGreaterThan(5)
    expect(JSON.stringify(audit.body)).not.toContain(password)
    expect(JSON.stringify(await a.status(taskId))).not.toContain(password)
    const { readdirSync, readFileSync } = await import('node:fs')
    const dir = `${server.dataDir}/state/observations`
    for (const name of readdirSync(dir)) expect(readFileSync(`${dir}/${name}`, 'utf8')).not.toContain(password)
  })
})

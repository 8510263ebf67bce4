import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AskAlwaysEntry, AuditEvent, HeldWrite, ScriptStep } from '#protocol'
import { agent, ok, PNG } from '../support/agent'
import { startServer, type TestServer } from '../support/server'

const held: HeldWrite = {
  id: 'interception-1',
  reason: 'write-method',
  request: {
    method: 'POST',
    url: 'https://shop.test/api/cart/41/items',
    origin: 'https://shop.test',
    path: '/api/cart/41/items',
    kind: 'fetch',
    fields: [{ name: 'sku', value: 'A1' }],
  },
}
const rule = { site: 'https://shop.test', method: 'POST', path: '/api/cart/*/items' }
const script: ScriptStep[] = [{ type: 'click', selector: '#add' }, { type: 'click', selector: '#add-more' }, { type: 'click', selector: '#done' }]
const after = { label: 'after' as const, contentType: 'image/png' as const, data: PNG }

let server: TestServer
let a: ReturnType<typeof agent>
beforeAll(async () => {
  server = await startServer()
  a = agent(server)
})
afterAll(() => server?.close())

const events = async (taskId: string) => (await server.api('GET', `/api/audit/${taskId}`)).body.data.events as AuditEvent[]

/** A task whose first click set off a write the barrier held: the person is asked about it. */
async function heldTask() {
  const { taskId } = await a.start({ script })
  const click = await a.nextAction(taskId)
  expect((await a.report(click, { held: [held], artifacts: [after] })).status).toBe('WAITING_CONFIRMATION')
  return { taskId, actionId: (await a.status(taskId)).pendingConfirmation!.actionId }
}

describe('allow requests like this for the rest of this task', () => {
  it('keeps the rule on the task: its later actions carry it, another task’s do not, and no site rule is made', async () => {
    const { taskId, actionId } = await heldTask()
    await ok(server.api('POST', '/api/agent/confirm', { taskId, actionId, approved: true, forTask: true }))
    const answered = (await events(taskId)).find((e) => e.type === 'confirmation.answered')!
    expect(answered.data).toMatchObject({ approved: true, forTask: true, allowWrites: [rule], scope: 'task' })
    expect(answered.data.always).toBeUndefined()

    const release = await a.nextAction(taskId)
    expect(release.allowWrites).toEqual([rule])
    await a.report(release, { released: [held] })
    const next = await a.nextAction(taskId)
    expect(next.allowWrites).toEqual([rule])

    // The same kind, for another cart, goes through unasked in this task, and the audit names the rule and its scope.
    const other = { ...held.request, url: 'https://shop.test/api/cart/42/items', path: '/api/cart/42/items' }
    const reply = await a.report(next, { allowed: [other] })
    expect(reply.status).not.toBe('WAITING_CONFIRMATION')
    expect((await events(taskId)).filter((e) => e.type === 'write.allowed')).toMatchObject([{ actionId: next.actionId, data: { request: other, rule, scope: 'task' } }])

    const elsewhere = await a.start({ script })
    expect((await a.nextAction(elsewhere.taskId)).allowWrites).toBeUndefined()
    expect(await ok(server.api('GET', '/api/writes/allowed'))).toEqual([])
    await a.command('cancel', elsewhere.taskId)
    await a.command('cancel', taskId)
  })

  it('refuses always and forTask together, and a forTask that is no boolean, with the error envelope', async () => {
    const { taskId, actionId } = await heldTask()
    for (const body of [
      { taskId, actionId, approved: true, always: true, forTask: true },
      { taskId, actionId, approved: true, forTask: 'yes' },
    ]) {
      const res = await server.api('POST', '/api/agent/confirm', body)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } })
    }
    expect((await a.status(taskId)).task.status).toBe('WAITING_CONFIRMATION')
    await a.command('cancel', taskId)
  })

  it('records a site rule as such when the person chose always', async () => {
    const { taskId, actionId } = await heldTask()
    await ok(server.api('POST', '/api/agent/confirm', { taskId, actionId, approved: true, always: true }))
    const answered = (await events(taskId)).find((e) => e.type === 'confirmation.answered')!
    expect(answered.data).toMatchObject({ always: true, allowWrites: [rule], scope: 'site' })
    const release = await a.nextAction(taskId)
    await a.report(release, { released: [held], allowed: [held.request] })
    expect((await events(taskId)).filter((e) => e.type === 'write.allowed')).toMatchObject([{ data: { rule, scope: 'site' } }])
    await ok(server.api('POST', '/api/writes/forget', rule))
    await a.command('cancel', taskId)
  })
})

describe('harmless writes, and the kinds always asked about', () => {
  const cart = { site: 'shop.test', kind: 'cart' as const }

  it('audits each harmless write with its kind and shows it in the step', async () => {
    const { taskId } = await a.start({ script })
    const click = await a.nextAction(taskId)
    const request = { ...held.request, url: 'https://shop.test/cart/change.js', path: '/cart/change.js' }
    await a.report(click, { harmless: [{ kind: 'cart', request }] })
    expect((await events(taskId)).filter((e) => e.type === 'write.harmless')).toMatchObject([{ actionId: click.actionId, data: { request, kind: 'cart' } }])
    expect((await a.status(taskId)).steps.at(-1)).toMatchObject({ actionId: click.actionId, harmless: [{ kind: 'cart', request }] })
    await a.command('cancel', taskId)
  })

  it('keeps a kind always asked about per site, hands it out with every action, and forgets it on request', async () => {
    const added = await ok<AskAlwaysEntry[]>(server.api('POST', '/api/writes/ask-always', cart))
    expect(added).toEqual([{ ...cart, at: expect.any(String), by: expect.any(String) }])
    await ok(server.api('POST', '/api/writes/ask-always', cart))
    expect(await ok(server.api('GET', '/api/writes/ask-always'))).toEqual(added)

    const { taskId } = await a.start({ script })
    expect((await a.nextAction(taskId)).askAlways).toEqual([cart])
    await a.command('cancel', taskId)

    expect(await ok(server.api('POST', '/api/writes/ask-always/forget', cart))).toEqual([])
    const later = await a.start({ script })
    expect((await a.nextAction(later.taskId)).askAlways).toBeUndefined()
    await a.command('cancel', later.taskId)
  })

  it('refuses a kind it does not know with the error envelope', async () => {
    for (const path of ['/api/writes/ask-always', '/api/writes/ask-always/forget']) {
      const res = await server.api('POST', path, { site: 'shop.test', kind: 'checkout' })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } })
    }
  })

  it('is the owner’s alone: an agent token is refused on every new route, and cannot confirm', async () => {
    const made = await server.api('POST', '/api/tokens', { scope: 'mcp', name: 'an agent' })
    expect(made.status).toBe(201)
    const token = made.body.data.token as string
    const { taskId, actionId } = await heldTask()
    for (const [method, path, body] of [
      ['GET', '/api/writes/ask-always', undefined],
      ['POST', '/api/writes/ask-always', cart],
      ['POST', '/api/writes/ask-always/forget', cart],
      ['POST', '/api/agent/confirm', { taskId, actionId, approved: true, forTask: true }],
    ] as const) {
      const res = await server.api(method, path, body, { token })
      expect(res.status, `${method} ${path}`).toBe(403)
      expect(res.body).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
    }
    expect((await a.status(taskId)).task.status).toBe('WAITING_CONFIRMATION')
    expect(await ok(server.api('GET', '/api/writes/ask-always'))).toEqual([])
    await a.command('cancel', taskId)
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createStorage, type Storage } from 'unstorage'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { redactSensitiveText } from '#protocol'
import { readAuditView } from '../../server/lib/audit/view'
import { createAuditLog } from '../../server/lib/audit/log'
import { createMcpTools, type McpTool } from '../../server/lib/mcp/tools'
import { REDACTED } from '../../server/lib/privacy/redact'
import { createSecrets } from '../../server/lib/privacy/secrets'
import { createSkillIndex } from '../../server/lib/skills/search-index'
import { inProcessEngine } from '../support/engine'

const SECRET = 'hunter2-sesame-9137'
const http = { clientId: 'c1' }
const principal = { kind: 'agent' as const, tokenId: 'tok1', name: 'Unit agent', client: 'unit-agent' }
const ctx = { source: { userAgent: 'agent/1', mcp: { name: 'unit-agent', version: '2.0.0' }, principal }, origin: 'http://127.0.0.1:3000', principal }
let dir: string
let storage: Storage
afterEach(() => rmSync(dir, { recursive: true, force: true }))
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-mcp-'))
  storage = createStorage()
})

/** One server process over the shared storage and audit folder, with no model configured. */
function boot() {
  const audit = createAuditLog({ dir, fsync: false })
  const secrets = createSecrets({ TANDEM_SECRET_SHOP: SECRET })
  const engine = inProcessEngine(storage, audit, { secrets })
  const tools = createMcpTools({
    engine,
    skills: async () => createSkillIndex([]),
    auditView: (taskId) => readAuditView(audit, taskId),
    redact: (text) => redactSensitiveText(secrets.redact(text), {}, REDACTED),
    secretNames: () => secrets.names(),
  })
  const callAs = (as: typeof ctx, name: string, args: unknown) => {
    const tool = tools.find((t) => t.name === name) as McpTool
    return tool.run(tool.input.parse(args), as)
  }
  const call = (name: string, args: unknown) => callAs(ctx, name, args)
  return { engine, audit, call, callAs, tools }
}

const page = (overrides: Record<string, unknown> = {}) => ({
  status: 'done' as const,
  url: 'http://shop.example/checkout',
  title: 'Checkout',
  elementTree: '[0]<input name=fullname>\n[1]<button>Place order</button>',
  elements: [
    { index: 0, tag: 'input', attributes: { name: 'fullname' }, fingerprint: 'f0' },
    { index: 1, tag: 'button', text: 'Place order', fingerprint: 'f1' },
  ],
  visibleTextSnippet: `Card 4111 1111 1111 1111 on file. Code ${SECRET}`,
  errors: [],
  timing: {},
  ...overrides,
})

/** As the extension: takes the action in flight and reports it done on `observed`. */
async function runNext(engine: ReturnType<typeof boot>['engine'], taskId: string, observed = page()) {
  const { action } = await engine.next({ clientId: 'c1', taskId, waitMs: 2000 }, http)
  expect(action, 'an action for the extension').not.toBeNull()
  await engine.report({ taskId, actionId: action!.actionId, observation: observed }, http)
  return action!
}

describe('the MCP tools over the engine', () => {
  it('start a task the client plans with no model configured, and no planner of Tandem’s ever decides for it, even after a restart', async () => {
    const first = boot()
    const started = await first.call('start_task', { goal: 'buy it', clientId: 'c1', startUrl: 'http://shop.example/' })
    const taskId = (started.data as { task: { id: string; mode: string } }).task.id
    expect((started.data as { task: { mode: string } }).task.mode).toBe('mcp')
    await runNext(first.engine, taskId)
    await first.engine.kick(taskId)
    expect((await first.engine.status(taskId)).task.status).toBe('RUNNING')

    const second = boot()
    await second.engine.recover()
    await second.engine.kick(taskId)
    const view = await second.engine.status(taskId)
    expect(view.task).toMatchObject({ status: 'RUNNING', mode: 'mcp' })
    expect(view.task.error).toBeUndefined()
    expect((await second.call('task_status', { taskId })).message).toMatch(/^Your turn/)
  })

  it('reads the page as the planner’s prompt shows it, with secrets and card numbers masked, and types a secret by name', async () => {
    const { engine, call, audit } = boot()
    const { data } = await call('start_task', { goal: 'look', clientId: 'c1', startUrl: 'http://shop.example/' })
    const taskId = (data as { task: { id: string } }).task.id
    expect((await call('read_page', { taskId })).message).toMatch(/^No page has been observed yet/)
    await runNext(engine, taskId)
    const { message } = await call('read_page', { taskId })
    expect(message).toMatch(/^Secrets you may type as placeholders: \{\{secret:SHOP\}\}\n<untrusted_page /)
    expect(message).toContain('<untrusted_page url="http://shop.example/checkout" title="Checkout">\n[0]<input name=fullname>\n[1]<button>Place order</button>')
    expect(message).toContain('<page_text>\nCard •••• on file. Code ••••\n</page_text>')
    expect(message).not.toContain(SECRET)
    expect(message).not.toContain('4111 1111 1111 1111')

    // The agent types the secret by name; typing a secret is the person's to approve. Then the extension gets the
    // value, and neither the audit nor the agent ever does.
    const asking = call('act', { taskId, action: { type: 'type', index: 0, text: '{{secret:SHOP}}' }, waitMs: 5000 })
    await runNext(engine, taskId) // the picture for the card
    expect((await asking).message).toMatch(/^Waiting for the person/)
    const typing = call('task_status', { taskId, waitMs: 5000 })
    await engine.confirm({ taskId, actionId: (await engine.status(taskId)).pendingConfirmation!.actionId, approved: true }, { clientId: 'panel' })
    const { action } = await engine.next({ clientId: 'c1', taskId, waitMs: 2000 }, http)
    expect(action).toMatchObject({ type: 'type', params: { text: SECRET } })
    await engine.report({ taskId, actionId: action!.actionId, observation: page() }, http)
    const typed = await typing
    expect(typed.message).toMatch(/^Your turn/)
    expect(JSON.stringify(typed)).not.toContain(SECRET)
    expect(JSON.stringify(await audit.read(taskId))).not.toContain(SECRET)
  })

  it('a risky step waits for the person: act answers at once that it waits, and task_status waits for the decision', async () => {
    const { engine, call, audit } = boot()
    const { data } = await call('start_task', { goal: 'order', clientId: 'c1', startUrl: 'http://shop.example/' })
    const taskId = (data as { task: { id: string } }).task.id
    await runNext(engine, taskId)

    const acting = call('act', { taskId, action: { type: 'click', index: 1 }, waitMs: 5000 })
    await runNext(engine, taskId) // the picture for the card
    const t0 = Date.now()
    const waiting = await acting
    expect(Date.now() - t0).toBeLessThan(1000)
    expect(waiting.message).toMatch(/^Waiting for the person: step 2 \(click “Place order”\) is risky/)
    await expect(call('act', { taskId, action: { type: 'done', success: true, text: 'x' } })).rejects.toMatchObject({ data: { code: 'CONFLICT' } })

    // Without an answer the wait runs out and says the same.
    const still = await call('task_status', { taskId, waitMs: 100 })
    expect(still.message).toMatch(/^Waiting for the person/)
    const deciding = call('task_status', { taskId, waitMs: 5000 })
    const pending = (await engine.status(taskId)).pendingConfirmation!
    await engine.confirm({ taskId, actionId: pending.actionId, approved: false, reason: 'not now' }, { clientId: 'panel' })
    const decided = await deciding
    expect(decided.message).toMatch(/^Your turn.*step 2 click “Place order”: rejected — the person said: not now/)
    // The agent hears who decided, and why, in the status itself.
    expect(decided.message).toContain('The person rejected the risky step: “not now”.')
    expect((decided.data as { task: { lastAnswer: unknown } }).task.lastAnswer).toMatchObject({ kind: 'confirmation', approved: false, reason: 'not now', by: { kind: 'owner' } })

    const events = await audit.read(taskId)
    expect(events.filter((e) => e.type === 'action.dispatched' && e.actionId === pending.actionId)).toHaveLength(0)
    expect(events.find((e) => e.type === 'planner.decision')!.data).toMatchObject({ planner: 'mcp', source: ctx.source })
  })

  it('takes a double click and a right click in act, each judged as a click is: a double click on Place order waits for the person', async () => {
    const { engine, call, tools } = boot()
    const listed = JSON.stringify(z.toJSONSchema(tools.find((t) => t.name === 'act')!.input, { io: 'input', unrepresentable: 'any' }))
    for (const type of ['double_click', 'right_click']) expect(listed).toContain(`"const":"${type}"`)
    const { data } = await call('start_task', { goal: 'rename it', clientId: 'c1', startUrl: 'http://shop.example/' })
    const taskId = (data as { task: { id: string } }).task.id
    await runNext(engine, taskId)

    const editing = call('act', { taskId, action: { type: 'double_click', index: 0 }, waitMs: 5000 })
    expect(await runNext(engine, taskId)).toMatchObject({ type: 'double_click', target: { by: 'index', value: 0 }, requiresConfirmation: false })
    expect((await editing).message).toMatch(/^Your turn/)
    const menu = call('act', { taskId, action: { type: 'right_click', index: 0 }, waitMs: 5000 })
    expect(await runNext(engine, taskId)).toMatchObject({ type: 'right_click', requiresConfirmation: false })
    expect((await menu).message).toMatch(/^Your turn/)

    const ordering = call('act', { taskId, action: { type: 'double_click', index: 1 }, waitMs: 5000 })
    await runNext(engine, taskId) // the picture for the card
    expect((await ordering).message).toMatch(/^Waiting for the person: step 4 \(double_click “Place order”\) is risky/)
  })

  it('an agent reaches only the tasks its own token started: the person’s and another agent’s are refused', async () => {
    const { engine, call, callAs } = boot()
    const persons = await engine.start({ goal: 'the person’s own task', clientId: 'c1', script: [{ type: 'scroll', direction: 'down' }] }, { clientId: 'c1', principal: { kind: 'owner', via: 'panel' } })
    const other = { ...ctx, principal: { ...principal, tokenId: 'tok2', name: 'Other agent' } }
    const others = (await callAs({ ...other, source: { ...other.source, principal: other.principal } }, 'start_task', { goal: 'theirs', clientId: 'c1' })).data as { task: { id: string } }
    for (const taskId of [persons.taskId, others.task.id]) {
      for (const [tool, args] of [
        ['task_status', { taskId }],
        ['read_page', { taskId }],
        ['read_audit', { taskId }],
        ['cancel_task', { taskId }],
        ['act', { taskId, action: { type: 'scroll', direction: 'down' } }],
      ] as const) {
        await expect(call(tool, args), tool).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } })
      }
    }
    expect((await engine.status(persons.taskId)).task.status).toBe('RUNNING')

    // Its own task it may end, and the task says who ended it.
    const mine = ((await call('start_task', { goal: 'mine', clientId: 'c1' })).data as { task: { id: string; startedBy: unknown } }).task
    expect(mine.startedBy).toEqual(principal)
    await call('cancel_task', { taskId: mine.id })
    const ended = (await engine.status(mine.id)).task
    expect(ended).toMatchObject({ status: 'CANCELED', error: { message: 'Canceled by Unit agent (unit-agent).' }, lastAnswer: { kind: 'cancel', by: principal } })
  })
})

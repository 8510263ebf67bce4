import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditEvent } from '#protocol'
import { StartBody } from '#protocol'
import { z } from 'zod'
import { agent, ok } from '../support/agent'
import { connectMcp, type McpTestClient } from '../support/mcp-client'
import { startServer, type TestServer } from '../support/server'

let server: TestServer
let a: ReturnType<typeof agent>
let mcp: McpTestClient
beforeAll(async () => {
  server = await startServer()
  a = agent(server)
  // The extension has called in: tasks started with no client go to it.
  await a.next(undefined, 0)
  mcp = await connectMcp(server.url, server.token)
})
afterAll(async () => {
  await mcp?.close().catch(() => undefined)
  await server?.close()
})

const run = promisify(execFile)
const auditOf = async (taskId: string) => (await ok<{ events: AuditEvent[] }>(server.api('GET', `/api/audit/${taskId}`))).events
const CLIENT = { name: 'tandem-test-agent', version: '1.2.3' }

describe('/mcp', () => {
  it('refuses a request without the token, with the API’s error envelope', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: CLIENT } }
    const res = await server.api('POST', '/mcp', init, { token: null, headers: { accept: 'application/json, text/event-stream' } })
    expect(res.status).toBe(401)
    expect(res.body).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } })
    const wrong = await server.api('POST', '/mcp', init, { token: 'not-the-token', headers: { accept: 'application/json, text/event-stream' } })
    expect(wrong.status).toBe(401)
  })

  it('keeps a session from initialize to DELETE; an unknown session is a 404 and a call before initialize a 400, in the envelope', async () => {
    const headers = { accept: 'application/json, text/event-stream' }
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: CLIENT } }
    const opened = await server.api('POST', '/mcp', init, { headers })
    expect(opened.status).toBe(200)
    expect(opened.body.result.serverInfo).toMatchObject({ name: 'tandem' })
    const session = opened.headers.get('mcp-session-id')!
    expect(session).toMatch(/^[0-9a-f-]{36}$/)
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' }
    expect((await server.api('POST', '/mcp', list, { headers: { ...headers, 'mcp-session-id': 'no-such-session' } })).body).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    const before = await server.api('POST', '/mcp', list, { headers })
    expect(before.status).toBe(400)
    expect(before.body).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } })
    expect((await server.api('DELETE', '/mcp', undefined, { headers: { ...headers, 'mcp-session-id': session } })).status).toBe(200)
    expect((await server.api('POST', '/mcp', list, { headers: { ...headers, 'mcp-session-id': session } })).status).toBe(404)
  })

  it('lists the tools, none of which answers for the person; start_task takes exactly StartBody', async () => {
    const { tools } = await mcp.client.listTools()
    const names = tools.map((t) => t.name).sort()
    expect(names).toEqual(['act', 'cancel_task', 'list_skills', 'read_audit', 'read_page', 'search_skills', 'start_task', 'task_status'])
    expect(names.some((n) => /confirm|approve|answer/.test(n))).toBe(false)
    const start = tools.find((t) => t.name === 'start_task')!
    const { $schema: _, ...expected } = z.toJSONSchema(StartBody, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
    expect(start.inputSchema).toEqual({ ...expected, type: 'object' })
  })

  it('drives a task step by step: a risky step waits for the person, and the audit names the MCP client', async () => {
    const started = await mcp.call('start_task', { goal: 'buy the phone', startUrl: 'http://127.0.0.1:9/shop' })
    expect(started.isError, started.text).toBe(false)
    const taskId = started.data.task.id as string
    expect(started.data.task).toMatchObject({ mode: 'mcp', status: 'RUNNING' })

    // The start URL opens first, as for any task; then it is the client's turn, and no planner of Tandem's runs.
    const open = await a.nextAction(taskId)
    expect(open).toMatchObject({ type: 'navigate' })
    await a.report(open)
    const turn = await mcp.call('task_status', { taskId, waitMs: 5000 })
    expect(turn.text).toMatch(/^Your turn/)
    expect(turn.data.thinking).toBe(false)

    const page = await mcp.call('read_page', { taskId })
    expect(page.text).toContain('[2]<button>Place order</button>')
    expect(page.text).toContain('<untrusted_page url="http://127.0.0.1:9/shop"')

    // A low-risk step runs at once: the extension takes it, reports, and act answers with its outcome.
    const typing = mcp.call('act', { taskId, action: { type: 'type', index: 1, text: 'phone', reason: 'search' } })
    const typed = await a.nextAction(taskId)
    expect(typed).toMatchObject({ type: 'type', params: { text: 'phone' }, risk: 'low' })
    await a.report(typed)
    const afterType = await typing
    expect(afterType.data.newSteps).toMatchObject([{ type: 'type', outcome: 'done', number: 2 }])
    expect(afterType.text).toMatch(/^Your turn/)

    // The order: the client does not even say it is risky; the gate judges it so and the person is asked.
    const ordering = mcp.call('act', { taskId, action: { type: 'click', index: 2 } })
    const picture = await a.nextAction(taskId) // the picture for the card comes first
    expect(picture).toMatchObject({ type: 'screenshot', risk: 'low' })
    await a.report(picture)
    const waiting = await ordering
    expect(waiting.isError).toBe(false)
    expect(waiting.data.task.status).toBe('WAITING_CONFIRMATION')
    expect(waiting.text).toMatch(/^Waiting for the person: step 3 \(click “Place order”\) is risky/)
    expect(waiting.text).toContain('You cannot approve or reject it for them')
    // Nothing reaches the extension meanwhile, and the client cannot push past the question.
    expect((await a.next(taskId, 0)).action).toBeNull()
    const pushed = await mcp.call('act', { taskId, action: { type: 'click', index: 2 } })
    expect(pushed).toMatchObject({ isError: true, error: { code: 'CONFLICT' } })
    expect(pushed.text).toContain('only they can answer it')

    // The client waits; the person approves in the panel (here through the API, as the panel does); the step runs.
    const decided = mcp.call('task_status', { taskId, waitMs: 15_000 })
    const pending = (await a.status(taskId)).pendingConfirmation!
    await a.confirm(taskId, pending.actionId, true)
    const click = await a.nextAction(taskId)
    expect(click).toMatchObject({ type: 'click', confirmation: { approved: true } })
    await a.report(click, { url: 'http://127.0.0.1:9/done', title: 'Order confirmed' })
    const after = await decided
    expect(after.text).toMatch(/^Your turn.*step 3 click “Place order”: done/)

    const done = await mcp.call('act', { taskId, action: { type: 'done', success: true, text: 'Ordered.' } })
    expect(done.data.task).toMatchObject({ status: 'SUCCEEDED', result: { success: true, text: 'Ordered.' } })
    expect(done.text).toMatch(/^The task has ended: SUCCEEDED/)

    const events = await auditOf(taskId)
    expect(events.find((e) => e.type === 'task.created')!.data).toMatchObject({ mode: 'mcp', source: { mcp: CLIENT } })
    const decisions = events.filter((e) => e.type === 'planner.decision')
    expect(decisions).toHaveLength(3)
    for (const d of decisions) expect(d.data).toMatchObject({ planner: 'mcp', source: { mcp: CLIENT } })
    // The approval is the person's, not the client's.
    const answered = events.find((e) => e.type === 'confirmation.answered')!
    expect(answered.data.source).not.toHaveProperty('mcp')
    const audit = await mcp.call('read_audit', { taskId })
    expect(audit.data.verified.ok).toBe(true)
    expect(audit.data.events).toHaveLength(events.length)
  })

  it('answers bad input, unknown tasks and tasks it does not drive with the error envelope', async () => {
    // Arguments that do not fit a tool's schema are JSON-RPC's invalid params, naming what to change.
    await expect(mcp.call('act', { taskId: 'abc', action: { type: 'click' } })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('act: action') })
    await expect(mcp.call('start_task', { goal: 'x', startURL: 'http://127.0.0.1:9/' })).rejects.toMatchObject({ code: -32602 })
    expect(await mcp.call('task_status', { taskId: 'nosuchtask' })).toMatchObject({ isError: true, error: { code: 'NOT_FOUND' } })

    // A script runs by itself: the client watches it and cannot slip steps in.
    const script = await mcp.call('start_task', { goal: 'scripted', script: [{ type: 'navigate', url: 'http://127.0.0.1:9/' }] })
    expect(script.data.task.mode).toBe('script')
    const slipped = await mcp.call('act', { taskId: script.data.task.id, action: { type: 'scroll', direction: 'down' } })
    expect(slipped).toMatchObject({ isError: true, error: { code: 'CONFLICT', details: { mode: 'script' } } })
    // Without Tandem's own model, asking for it is refused as /api refuses it.
    expect(await mcp.call('start_task', { goal: 'plan it yourself', mode: 'llm' })).toMatchObject({ isError: true, error: { code: 'LLM_NOT_CONFIGURED' } })

    const canceled = await mcp.call('cancel_task', { taskId: script.data.task.id })
    expect(canceled.data.status).toBe('CANCELED')
  })

  it('asks the person a question and waits for their answer', async () => {
    const started = await mcp.call('start_task', { goal: 'ask first' })
    const taskId = started.data.task.id as string
    const asked = await mcp.call('act', { taskId, action: { type: 'ask_user', question: 'Which colour?' } })
    expect(asked.text).toContain('Waiting for the person to answer in Tandem’s side panel: “Which colour?”')
    const answering = mcp.call('task_status', { taskId, waitMs: 10_000 })
    await a.answer(taskId, 'Blue')
    const answered = await answering
    expect(answered.text).toMatch(/^Your turn/)
    // The agent hears the answer in the status itself, not only in the audit.
    expect(answered.text).toContain('The person answered “Which colour?”: “Blue”.')
    expect(answered.data.task.lastAnswer).toMatchObject({ kind: 'question', answer: 'Blue', by: { kind: 'owner', via: 'api' } })
    expect((await auditOf(taskId)).find((e) => e.type === 'user.answered')!.data).toMatchObject({ answer: 'Blue' })
    await mcp.call('cancel_task', { taskId })
  })
})

describe('principals: an agent token opens /mcp and nothing else', () => {
  const web = { accept: 'application/json, text/event-stream' }
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: CLIENT } }
  let agentToken: string
  let tokenId: string
  let claude: McpTestClient
  beforeAll(async () => {
    const made = await server.api('POST', '/api/tokens', { scope: 'mcp', name: 'Claude Code' })
    expect(made.status).toBe(201)
    ;({ token: agentToken, id: tokenId } = made.body.data)
    expect(agentToken).toMatch(/^tandem_agent_/)
    claude = await connectMcp(server.url, agentToken, 'claude-code', '2.0.1')
  })
  afterAll(() => claude?.close().catch(() => undefined))

  it('lists the token by name, never the token; an agent token is refused every /api route but health, whatever header it sends', async () => {
    const listed = await ok<Array<Record<string, unknown>>>(server.api('GET', '/api/tokens'))
    expect(listed.find((t) => t.id === tokenId)).toMatchObject({ name: 'Claude Code', scope: 'mcp', createdAt: expect.any(String), lastUsedAt: expect.any(String) })
    expect(JSON.stringify(listed)).not.toContain(agentToken)
    expect((await server.api('GET', '/api/health', undefined, { token: agentToken })).status).toBe(200)
    const extension = { 'x-tandem-client': 'client_test_1', 'x-tandem-version': '0.1.0' }
    const routes: Array<[string, string, unknown?]> = [
      ['POST', '/api/agent/confirm', { taskId: 'abc', actionId: 'def', approved: true }],
      ['POST', '/api/agent/answer', { taskId: 'abc', answer: 'yes' }],
      ['POST', '/api/agent/next', { clientId: 'client_test_1', waitMs: 0 }],
      ['POST', '/api/agent/report', { taskId: 'abc', actionId: 'def', observation: {} }],
      ['POST', '/api/agent/plan', { taskId: 'abc', approved: true }],
      ['POST', '/api/agent/cancel', { taskId: 'abc' }],
      ['GET', '/api/agent/tasks'],
      ['GET', '/api/audit/abc'],
      ['GET', '/api/tokens'],
      ['POST', '/api/tokens', { scope: 'mcp', name: 'another' }],
      ['GET', '/api/skills'],
      ['GET', '/api/info'],
    ]
    for (const [method, path, body] of routes) {
      for (const headers of [{}, extension]) {
        const res = await server.api(method, path, body, { token: agentToken, headers })
        expect(res.status, `${method} ${path}`).toBe(403)
        expect(res.body).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', message: expect.stringContaining('agent token') } })
      }
    }
  })

  it('an agent proposes an order, cannot approve it with its token, and the person approves it: the audit names each of them', async () => {
    const started = await claude.call('start_task', { goal: 'order the phone', startUrl: 'http://127.0.0.1:9/shop' })
    const taskId = started.data.task.id as string
    expect(started.data.task.startedBy).toEqual({ kind: 'agent', tokenId, name: 'Claude Code', client: 'claude-code' })
    await a.report(await a.nextAction(taskId))
    const ordering = claude.call('act', { taskId, action: { type: 'click', index: 2 } })
    await a.report(await a.nextAction(taskId)) // the picture for the card
    expect((await ordering).data.task.status).toBe('WAITING_CONFIRMATION')
    const pending = (await a.status(taskId)).pendingConfirmation!

    // Its own token, even naming the extension: refused, and the step is still the person's to decide.
    const approve = { taskId, actionId: pending.actionId, approved: true }
    const forged = await server.api('POST', '/api/agent/confirm', approve, { token: agentToken, headers: { 'x-tandem-client': 'client_test_1' } })
    expect(forged.status).toBe(403)
    expect((await server.api('POST', '/api/agent/next', { clientId: 'client_test_1', taskId }, { token: agentToken })).status).toBe(403)
    expect((await a.status(taskId)).task.status).toBe('WAITING_CONFIRMATION')

    // The person approves in the side panel (the owner's token, the extension naming itself).
    const deciding = claude.call('task_status', { taskId, waitMs: 15_000 })
    const approved = await server.api('POST', '/api/agent/confirm', approve, { headers: { 'x-tandem-client': 'client_test_1' } })
    expect(approved.status).toBe(200)
    await a.report(await a.nextAction(taskId))
    const heard = await deciding
    expect(heard.text).toMatch(/^Your turn.*The person approved the risky step\./)
    await claude.call('cancel_task', { taskId, reason: 'enough for today' })

    const events = await auditOf(taskId)
    const principalIn = (type: string) => (events.find((e) => e.type === type)!.data as { source: { principal?: unknown } }).source.principal
    expect(principalIn('task.created')).toEqual({ kind: 'agent', tokenId, name: 'Claude Code', client: 'claude-code' })
    expect(principalIn('confirmation.answered')).toEqual({ kind: 'owner', via: 'panel' })
    expect(principalIn('task.canceled')).toMatchObject({ kind: 'agent', name: 'Claude Code' })
    // The panel and console read who ended it from the task: the agent, never "you".
    const view = await a.status(taskId)
    expect(view.task).toMatchObject({
      status: 'CANCELED',
      error: { code: 'CANCELED', details: { canceledBy: 'Claude Code (claude-code)' } },
      lastAnswer: { kind: 'cancel', reason: 'enough for today', by: { kind: 'agent', name: 'Claude Code' } },
    })
  })

  it('an agent sees, reads, waits on and cancels only its own tasks; its session is its own; revoked, it is refused', async () => {
    const persons = await a.start({ goal: 'the person’s own task', script: [{ type: 'scroll', direction: 'down' }] })
    for (const [tool, args] of [
      ['task_status', { taskId: persons.taskId, waitMs: 10 }],
      ['read_audit', { taskId: persons.taskId }],
      ['read_page', { taskId: persons.taskId }],
      ['cancel_task', { taskId: persons.taskId }],
    ] as const) {
      expect(await claude.call(tool, args), tool).toMatchObject({ isError: true, error: { code: 'FORBIDDEN' } })
    }
    expect((await a.status(persons.taskId)).task.status).not.toBe('CANCELED')
    await a.command('cancel', persons.taskId)

    // A session opened with the agent's token is not the owner's, nor another agent's, to use.
    const opened = await server.api('POST', '/mcp', init, { token: agentToken, headers: web })
    const session = opened.headers.get('mcp-session-id')!
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' }
    const other = (await server.api('POST', '/api/tokens', { scope: 'mcp', name: 'Cursor' })).body.data
    for (const token of [server.token, other.token]) {
      const res = await server.api('POST', '/mcp', list, { token, headers: { ...web, 'mcp-session-id': session } })
      expect(res.status).toBe(403)
      expect(res.body).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
    }

    expect((await server.api('DELETE', `/api/tokens/${other.id}`)).status).toBe(200)
    expect((await server.api('POST', '/mcp', init, { token: other.token, headers: web })).status).toBe(401)
    expect((await server.api('DELETE', `/api/tokens/${other.id}`)).status).toBe(404)
  })

  it('takes tokens the CLI makes and revokes in the same data dir, while it runs', async () => {
    const cli = (...args: string[]) =>
      run('node', ['--import', 'tsx', 'scripts/token.ts', ...args], { env: { ...process.env, TANDEM_DATA_DIR: server.dataDir } }).catch(
        (error: { code: number; stdout: string; stderr: string }) => ({ ...error, failed: true }),
      )
    const added = await cli('add', 'Cline')
    const token = /tandem_agent_[A-Za-z0-9_-]+/.exec(added.stdout)?.[0]
    const id = /revoke (\w+)/.exec(added.stdout)?.[1]
    expect(token, added.stdout).toBeDefined()
    expect((await server.api('POST', '/mcp', init, { token, headers: web })).status).toBe(200)
    expect((await cli('list')).stdout).toMatch(new RegExp(`${id}  Cline  \\(mcp\\) made .*, last used `))
    expect((await cli('list')).stdout).not.toContain(token)
    await cli('revoke', id!)
    expect((await server.api('POST', '/mcp', init, { token, headers: web })).status).toBe(401)
    expect(await cli('revoke', id!)).toMatchObject({ failed: true, code: 1, stderr: expect.stringContaining(`No agent token ${id}`) })
    expect(await cli('add', 'two\nlines')).toMatchObject({ failed: true, code: 1, stderr: expect.stringContaining('must be one line') })
  })

  it('refuses web pages: a request from another site’s Origin is a 403, with any token', async () => {
    for (const token of [agentToken, server.token]) {
      const res = await server.api('POST', '/mcp', init, { token, headers: { ...web, origin: 'http://evil.example' } })
      expect(res.status).toBe(403)
      expect(res.body).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
    }
    // A tool of the person's own machine (an MCP inspector on loopback) is served.
    expect((await server.api('POST', '/mcp', init, { token: agentToken, headers: { ...web, origin: 'http://127.0.0.1:6274' } })).status).toBe(200)
  })
})

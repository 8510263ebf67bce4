import { Agent, request } from 'node:http'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorEnvelope, TaskStatus, isTerminal, planSiteHost, type AuditEvent, type NextData, type StatusView, type TaskView } from '#protocol'
import { agent, CLIENT, ok, PNG } from '../support/agent'
import { answer, startFakeLlm, type FakeLlm } from '../support/fake-llm'
import { fuzzRequest, routesFromFiles, type FuzzRequest, type Known } from '../support/fuzz-requests'
import { hardText, someText } from '../support/hard-text'
import { answerAndCancel, editedPlan, recordedSkill, rejectWithReason, savedSkill } from '../support/stored-texts'
import { startServer, type TestServer } from '../support/server'

const BATCH = 10
const RUNS = 1_000
const MAX_BODY = 16 * 1024
// The stored-text property: runs, and its seed (TANDEM_FUZZ_SEED replays a failure the log names).
const TEXT_RUNS = Number(process.env.TANDEM_TEXT_RUNS) || 200
const TEXT_SEED = Number(process.env.TANDEM_FUZZ_SEED) || Date.now() % 2 ** 31

let llm: FakeLlm
let server: TestServer
let known: Known
let agentToken: string
const routes = routesFromFiles()

beforeAll(async () => {
  // A model that answers at once, so goal-only tasks plan instead of failing for want of an LLM, and plan-first ones wait for their plan.
  llm = await startFakeLlm([
    (r) => (r.text.includes('Propose the plan as one JSON object') ? JSON.stringify({ steps: ['Open the shop'], sites: ['shop.example.com'], sends: [] }) : undefined),
    () => answer([{ type: 'done', success: true, text: 'done' }]),
  ])
  server = await startServer({ env: { TANDEM_LLM_BASE_URL: llm.url, TANDEM_LLM_MODEL: 'fake-model', TANDEM_LLM_TIMEOUT_MS: '2000', TANDEM_MAX_BODY_BYTES: String(MAX_BODY) } })
  const a = agent(server)
  agentToken = (await server.api('POST', '/api/tokens', { scope: 'mcp', name: 'fuzzing agent' })).body.data.token
  // Tasks in several states for the fuzzer to aim at: one waiting for a report, one with a screenshot, one paused.
  const waiting = await a.start({ script: [{ type: 'navigate', url: 'http://127.0.0.1:9/' }, { type: 'observe' }] })
  const first = await a.nextAction(waiting.taskId)
  const pictured = await a.start({ script: [{ type: 'observe' }, { type: 'observe' }] })
  const shot = await a.nextAction(pictured.taskId)
  await a.report(shot, { artifacts: [{ label: 'after', contentType: 'image/png', data: PNG }] })
  const second = await a.nextAction(pictured.taskId)
  const paused = await a.start({ script: [{ type: 'observe' }] })
  await a.command('pause', paused.taskId)
  const events = await ok<{ events: AuditEvent[] }>(server.api('GET', `/api/audit/${pictured.taskId}`))
  const artifactNames = events.events.flatMap((e) => ((e.data as { artifacts?: { name: string }[] }).artifacts ?? []).map((x) => x.name))
  known = { taskIds: [waiting.taskId, pictured.taskId, paused.taskId], actionIds: [first.actionId, shot.actionId, second.actionId], artifactNames, clientId: CLIENT }
  expect(artifactNames.length).toBeGreaterThan(0)
}, 60_000)
afterAll(async () => {
  keepAlive.destroy()
  await server?.close()
  await llm?.close()
})

const keepAlive = new Agent({ keepAlive: true, maxSockets: BATCH })

/** node:http rather than fetch: it sends the path as given (no `..` folding), a body with GET and any Host. */
function send(req: FuzzRequest): Promise<{ status: number; type: string; text: string }> {
  const headers: Record<string, string> = { ...req.headers }
  if (req.auth === 'valid') headers.authorization = `Bearer ${server.token}`
  if (req.auth === 'wrong') headers.authorization = `Bearer ${server.token}x`
  if (req.auth === 'agent') headers.authorization = `Bearer ${agentToken}`
  if (req.host !== undefined) headers.host = req.host
  // Node frames a GET body only when told its length; without it the bytes would read as the next request.
  if (req.raw !== undefined) headers['content-length'] = String(Buffer.byteLength(req.raw))
  const { port } = new URL(server.url)
  return new Promise((resolve, reject) => {
    const out = request({ host: '127.0.0.1', port, method: req.method, path: req.path, headers, agent: keepAlive }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString() }))
      res.on('error', reject)
    })
    out.on('error', reject)
    out.end(req.raw)
  })
}

/** What every answer must be: a 200 with data or a 4xx envelope; never a 5xx, never a bare page. */
async function check(req: FuzzRequest) {
  const { status, type, text } = await send(req)
  const label = `${req.method} ${req.path} (${req.kind}, auth ${req.auth}, host ${req.host ?? 'own'}) → ${status} ${text.slice(0, 200)}`
  expect(status, label).toBeLessThan(500)
  expect([200, 400, 401, 403, 404, 405, 409, 413], label).toContain(status)
  const foreignHost = req.host !== undefined && !/^(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?$/i.test(req.host)
  // What anyone may read: whether the server is up, and the API reference (no data in either).
  const isOpenRead = /^\/api\/(health|openapi\.json)(\?|$)/.test(req.path)
  const isReference = /^\/api\/openapi\.json(\?|$)/.test(req.path)
  if (foreignHost) expect(status, label).toBe(403)
  // An agent's token opens /mcp and nothing else: every /api route but the open reads is refused, whatever it sends.
  else if (req.auth === 'agent' && !(isOpenRead && (req.method === 'GET' || req.method === 'HEAD'))) expect(status, label).toBe(403)
  else if (req.auth !== 'valid' && req.auth !== 'agent' && !isOpenRead) expect(status, label).toBe(401)
  if (req.method === 'HEAD') return status
  if (status >= 400) {
    expect(type, label).toContain('application/json')
    const envelope = ErrorEnvelope.parse(JSON.parse(text))
    expect(envelope.error.message.length, label).toBeGreaterThan(0)
  } else if (type.includes('application/json')) {
    // The API reference is an OpenAPI document as tools read it, the one JSON answer outside the envelope.
    if (isReference) expect(JSON.parse(text).openapi, label).toBe('3.1.0')
    else expect(JSON.parse(text).ok, label).toBe(true)
  } else {
    // Only the audit's downloads answer with something other than JSON.
    expect(req.path, label).toMatch(/^\/api\/audit\/[^/]+\/(export|artifacts\/[^/?]+)(\?|$)/)
  }
  return status
}

describe('fuzzing every route', () => {
  it('finds every route file under server/api', () => {
    const names = routes.map((r) => `${r.method} /${r.segments.map((s) => (typeof s === 'string' ? s : `:${s.param}`)).join('/')}`)
    expect(names).toContain('POST /api/agent/start')
    expect(names).toContain('GET /api/audit/:taskId/artifacts/:name')
    expect(names).toContain('POST /api/skills')
    expect(routes.length).toBeGreaterThanOrEqual(20)
  })

  it('answers at least 10,000 random requests with 200 data or a 4xx envelope and stays up', async () => {
    let cases = 0
    const statuses = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(fc.array(fuzzRequest(routes, known, MAX_BODY), { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const answered = await Promise.all(batch.map(check))
        cases += batch.length
        for (const s of answered) statuses.set(s, (statuses.get(s) ?? 0) + 1)
      }),
      { numRuns: RUNS },
    )
    console.log(`[fuzz] ${cases} requests against ${routes.length} routes; statuses ${JSON.stringify(Object.fromEntries(statuses))}`)
    expect(cases).toBeGreaterThanOrEqual(10_000)
    // Enough of them valid that the engine itself was driven, not only the validators.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(1_000)
    expect((await server.api('GET', '/api/health')).status).toBe(200)
    expect(server.log()).not.toContain('internal error')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  }, 120_000)

  it('leaves every task in a legal state with at most one action in flight and an intact audit chain', async () => {
    const tasks = await ok<TaskView[]>(server.api('GET', '/api/agent/tasks?limit=500'))
    expect(tasks.length).toBeGreaterThan(known.taskIds.length)
    const verdicts = await Promise.all(
      tasks.map(async (task) => {
        TaskStatus.parse(task.status)
        const status = await ok<StatusView>(server.api('GET', `/api/agent/status?taskId=${task.id}`))
        const audit = await ok<{ events: AuditEvent[]; verified: { ok: boolean } }>(server.api('GET', `/api/audit/${task.id}`))
        const reported = new Set(audit.events.filter((e) => e.type === 'observation').map((e) => e.actionId))
        const dispatched = new Set(audit.events.filter((e) => e.type === 'action.dispatched').map((e) => e.actionId))
        const inFlight = [...dispatched].filter((id) => !reported.has(id))
        // A finished task keeps an action already handed out (its late report still lands in the audit) but hands out none.
        const terminal = isTerminal(status.task.status)
        const handsOut = terminal && (await ok<NextData>(server.api('POST', '/api/agent/next', { clientId: task.clientId ?? CLIENT, taskId: task.id, waitMs: 0 }))).action !== null
        const undispatched = terminal && status.currentAction !== null && !dispatched.has(status.currentAction.actionId)
        return { id: task.id, inFlight: inFlight.length, handsOut, undispatched, chain: audit.verified.ok }
      }),
    )
    for (const v of verdicts) {
      expect(v.inFlight, v.id).toBeLessThanOrEqual(1)
      expect(v.handsOut, v.id).toBe(false)
      expect(v.undispatched, v.id).toBe(false)
      expect(v.chain, v.id).toBe(true)
    }
    console.log(`[fuzz] invariants checked on ${verdicts.length} tasks`)
  }, 60_000)
})

describe('random Unicode in every text a skill, a task, a plan or an answer stores', () => {
  const SITES = ['shop.example.com', '127.0.0.1:3000', 'localhost', 'example.co.uk', 'com', 'co.uk', 'com.cn', 'github.io', '*', '*.example.com', 'intranet']

  it('reads back as written or is refused with a 400, never a 5xx', async () => {
    console.log(`[fuzz] stored texts: seed ${TEXT_SEED} (set TANDEM_FUZZ_SEED to replay), ${TEXT_RUNS} runs`)
    const statuses = new Map<number, number>()
    let run = 0
    const count = (seen: number[]) => seen.forEach((s) => statuses.set(s, (statuses.get(s) ?? 0) + 1))
    const texts = fc.record({
      name: someText('Fill the form'),
      description: someText('Fills the form.'),
      sop: someText('1. Open it.'),
      label: someText('Email'),
      reason: hardText(),
      goal: someText('Buy the phone'),
      answer: someText('Blue'),
      step: someText('Open the shop'),
      send: someText('The order'),
      site: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...SITES) }, { weight: 1, arbitrary: hardText(3) }),
    })
    await fc.assert(
      fc.asyncProperty(texts, async (t) => {
        const slug = `text-${++run}`
        count(await recordedSkill(server, `${slug}-recorded`, t))
        count(await savedSkill(server, `${slug}-saved`, t))
        count(await answerAndCancel(server, t))
        count(await rejectWithReason(server, t))
        count(await editedPlan(server, t, planSiteHost(t.site) !== null))
      }),
      { numRuns: TEXT_RUNS, seed: TEXT_SEED },
    )
    const calls = [...statuses.values()].reduce((a, b) => a + b, 0)
    const errors = [...statuses].filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0)
    console.log(`[fuzz] stored texts: ${calls} checked calls, ${errors} answered 5xx; statuses ${JSON.stringify(Object.fromEntries(statuses))}`)
    expect(errors).toBe(0)
    expect(statuses.get(200) ?? 0).toBeGreaterThan(TEXT_RUNS)
    expect(statuses.get(400) ?? 0).toBeGreaterThan(TEXT_RUNS / 4)
    expect(server.log()).not.toContain('internal error')
  }, 300_000)

  it('refuses a plan whose site is a public suffix, a pattern or a bare word, saying what to give', async () => {
    const a = agent(server)
    const { taskId } = await ok<{ taskId: string }>(server.api('POST', '/api/agent/start', { goal: 'Buy the phone', clientId: CLIENT, planFirst: true }))
    await a.waitFor(taskId, 'WAITING_PLAN')
    for (const site of ['com', 'co.uk', 'com.cn', 'github.io', '*', '*.example.com', 'intranet']) {
      const res = await server.api('POST', '/api/agent/plan', { taskId, approved: true, plan: { steps: ['Buy it'], sites: [site], sends: [] } })
      expect(res.status, site).toBe(400)
      expect(ErrorEnvelope.parse(res.body).error.message, site).toMatch(/a site such as shop\.example\.com/)
    }
    expect((await a.status(taskId)).task.status).toBe('WAITING_PLAN')
  })
})

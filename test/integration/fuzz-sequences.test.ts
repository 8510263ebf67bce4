import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorEnvelope, isTerminal, TaskStatus, type Action, type AuditEvent, type NextData, type ScriptStep, type StatusView } from '#protocol'
import { CLIENT, observation, ok } from '../support/agent'
import { startRedis, type TestRedis } from '../support/redis'
import { startServer, type TestServer } from '../support/server'

const RUNS = 300
const RUNS_ON_TWO_SERVERS = 150

// Calls take turns over the servers under test (one, or two sharing Redis), so racing pairs land on both.
let servers: TestServer[] = []
let calls = 0
const server = () => servers[calls++ % servers.length]!

const MOVES = ['next', 'next', 'next', 'nextTwice', 'report', 'report', 'reportFailed', 'reportTwice', 'reportOld', 'reportWrong', 'confirm', 'reject', 'answer', 'pause', 'resume', 'cancel'] as const
type Move = (typeof MOVES)[number]

const step: fc.Arbitrary<ScriptStep> = fc.oneof(
  fc.constant({ type: 'observe' } as ScriptStep),
  fc.constant({ type: 'navigate', url: 'http://127.0.0.1:9/shop' } as ScriptStep),
  fc.constant({ type: 'click', text: 'Place order' } as ScriptStep),
  fc.constant({ type: 'type', selector: 'input[name=q]', text: 'iPhone 15' } as ScriptStep),
  fc.constant({ type: 'ask_user', question: 'Which colour?' } as ScriptStep),
  fc.constant({ type: 'scroll', direction: 'down' } as ScriptStep),
)

/** One call of a sequence: whatever it answers must be 200 data or a 4xx envelope. */
async function call<T>(method: string, path: string, body?: unknown): Promise<T | null> {
  const res = await server().api(method, path, body)
  expect(res.status, `${path} ${JSON.stringify(body)} → ${res.status} ${JSON.stringify(res.body)}`).toBeLessThan(500)
  if (res.status === 200) return res.body.data as T
  ErrorEnvelope.parse(res.body)
  return null
}

/** Plays one sequence of moves against a fresh script task, as an extension and a person racing each other might. */
async function play(script: ScriptStep[], moves: Move[]) {
  const { taskId } = await ok<{ taskId: string }>(server().api('POST', '/api/agent/start', { goal: 'sequence', clientId: CLIENT, script }))
  const seen: Action[] = []
  const current = () => seen.at(-1)
  const next = async () => {
    // Planning runs in the background: give it a few short polls before taking "no action" as the answer.
    for (let i = 0; i < 10; i++) {
      const data = await call<NextData>('POST', '/api/agent/next', { clientId: CLIENT, taskId, waitMs: 0 })
      if (data?.action) {
        if (current()?.actionId !== data.action.actionId) seen.push(data.action)
        return data.action
      }
      if (data?.status !== 'RUNNING') return null
      await new Promise((r) => setTimeout(r, 5))
    }
    return null
  }
  const report = (actionId: string, status: 'done' | 'failed' = 'done') =>
    call<{ accepted: boolean; duplicate: boolean }>('POST', '/api/agent/report', { taskId, actionId, observation: observation({ status, ...(status === 'failed' ? { errors: [{ code: 'TARGET_NOT_FOUND', message: 'gone' }] } : {}) }) })
  const pending = async () => (await call<StatusView>('GET', `/api/agent/status?taskId=${taskId}`))?.pendingConfirmation?.actionId ?? current()?.actionId ?? 'a_none'
  let cases = 1
  for (const move of moves) {
    cases++
    if (move === 'next') await next()
    else if (move === 'nextTwice') {
      cases++
      const [a, b] = await Promise.all([next(), next()])
      // One action in flight: two clients asking at once get the same one.
      if (a && b) expect(a.actionId).toBe(b.actionId)
    } else if (move === 'report' || move === 'reportFailed') await report(current()?.actionId ?? 'a_none', move === 'report' ? 'done' : 'failed')
    else if (move === 'reportTwice') {
      cases++
      const [a, b] = await Promise.all([report(current()?.actionId ?? 'a_none'), report(current()?.actionId ?? 'a_none')])
      if (a && b) expect(a.duplicate || b.duplicate, 'a report applied twice').toBe(true)
    } else if (move === 'reportOld') await report(seen[0]?.actionId ?? 'a_none')
    else if (move === 'reportWrong') await report('a_not_a_real_action')
    else if (move === 'confirm' || move === 'reject') await call('POST', '/api/agent/confirm', { taskId, actionId: await pending(), approved: move === 'confirm', reason: 'fuzz' })
    else if (move === 'answer') await call('POST', '/api/agent/answer', { taskId, answer: 'blue' })
    else await call('POST', `/api/agent/${move}`, { taskId })
  }
  return { taskId, cases }
}

/** The engine's invariants for one task, read back through the API. */
async function expectInvariants(taskId: string): Promise<string> {
  const view = await ok<StatusView>(server().api('GET', `/api/agent/status?taskId=${taskId}`))
  TaskStatus.parse(view.task.status)
  const audit = await ok<{ events: AuditEvent[]; verified: { ok: boolean } }>(server().api('GET', `/api/audit/${taskId}`))
  expect(audit.verified.ok, taskId).toBe(true)
  const observed = audit.events.filter((e) => e.type === 'observation').map((e) => e.actionId)
  expect(new Set(observed).size, `an observation applied twice in ${taskId}`).toBe(observed.length)
  const stepIds = view.steps.map((s) => s.actionId)
  expect(new Set(stepIds).size, `a step recorded twice in ${taskId}`).toBe(stepIds.length)
  const dispatched = new Set(audit.events.filter((e) => e.type === 'action.dispatched').map((e) => e.actionId))
  expect([...dispatched].filter((id) => !observed.includes(id)).length, `actions in flight in ${taskId}`).toBeLessThanOrEqual(1)
  if (isTerminal(view.task.status)) {
    const next = await ok<NextData>(server().api('POST', '/api/agent/next', { clientId: CLIENT, taskId, waitMs: 0 }))
    expect(next.action, `a finished task handed out an action: ${taskId}`).toBeNull()
  }
  return view.task.status
}

async function fuzzSequences(runs: number) {
  let cases = 0
  const ended = new Map<string, number>()
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 4 }), fc.array(fc.constantFrom(...MOVES), { minLength: 4, maxLength: 14 }), async (script, moves) => {
      const run = await play(script, moves)
      cases += run.cases
      const status = await expectInvariants(run.taskId)
      ended.set(status, (ended.get(status) ?? 0) + 1)
    }),
    { numRuns: runs },
  )
  console.log(`[fuzz] ${cases} calls in random sequences over ${servers.length} server(s); tasks ended ${JSON.stringify(Object.fromEntries(ended))}`)
  for (const each of servers) {
    expect((await each.api('GET', '/api/health')).status).toBe(200)
    expect(each.log()).not.toContain('internal error')
  }
}

describe('fuzzing sequences of engine calls', () => {
  beforeAll(async () => void (servers = [await startServer()]))
  afterAll(() => Promise.all(servers.map((s) => s.close())))

  it('keeps one action in flight, legal states and an intact audit under any order of calls', () => fuzzSequences(RUNS), 90_000)
})

describe('fuzzing sequences of engine calls on two servers sharing Redis and the audit dir', () => {
  let redis: TestRedis
  let root: string
  beforeAll(async () => {
    redis = await startRedis()
    root = mkdtempSync(join(tmpdir(), 'tandem-fuzz-two-'))
    const shared = { redisUrl: redis.url, root, token: 'fuzz-two-servers-token' }
    servers = [await startServer(shared), await startServer(shared)]
  })
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()))
    await redis?.stop()
    rmSync(root, { recursive: true, force: true })
  })

  it('keeps the same invariants whichever server each call lands on', () => fuzzSequences(RUNS_ON_TWO_SERVERS), 90_000)
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Action, AuditEvent, ScriptStep } from '#protocol'
import { agent, ok } from '../support/agent'
import { startRedis, type TestRedis } from '../support/redis'
import { startServer, type TestServer } from '../support/server'

// Two real server processes on one Redis and one audit dir, as behind a load balancer: every call may land on either.
let redis: TestRedis
let root: string
let A: TestServer
let B: TestServer
beforeAll(async () => {
  redis = await startRedis()
  root = mkdtempSync(join(tmpdir(), 'tandem-two-'))
  const shared = { redisUrl: redis.url, root, token: 'two-servers-test-token' }
  A = await startServer(shared)
  B = await startServer(shared)
})
afterAll(async () => {
  await Promise.all([A?.close(), B?.close()])
  await redis?.stop()
  rmSync(root, { recursive: true, force: true })
})

const checkout: ScriptStep[] = [
  { type: 'navigate', url: 'http://127.0.0.1:9/shop' },
  { type: 'type', selector: 'input[name=q]', text: 'iPhone 15' },
  { type: 'click', text: 'Place order' },
  { type: 'scroll', direction: 'down' },
]

async function audit(server: TestServer, taskId: string) {
  return ok<{ events: AuditEvent[]; verified: { ok: boolean } }>(server.api('GET', `/api/audit/${taskId}`))
}

/** What both servers must agree on once a task is done: one chain, each action dispatched and observed once. */
async function expectOneHistory(taskId: string) {
  const [fromA, fromB] = await Promise.all([audit(A, taskId), audit(B, taskId)])
  expect(fromA.verified.ok).toBe(true)
  expect(fromB.events).toEqual(fromA.events)
  expect(fromA.events.map((e) => e.seq)).toEqual(fromA.events.map((_, i) => i + 1))
  const dispatched = fromA.events.filter((e) => e.type === 'action.dispatched').map((e) => e.actionId)
  const observed = fromA.events.filter((e) => e.type === 'observation').map((e) => e.actionId)
  expect(new Set(dispatched).size, 'an action dispatched twice').toBe(dispatched.length)
  expect(new Set(observed).size, 'an observation applied twice').toBe(observed.length)
  expect([...dispatched].sort()).toEqual([...observed].sort())
  const [viewA, viewB] = await Promise.all([agent(A).status(taskId), agent(B).status(taskId)])
  expect(viewB).toEqual(viewA)
  return { events: fromA.events, view: viewA }
}

describe('two servers on one Redis', () => {
  it('runs a task whose calls alternate between them: next on A, report on B, confirm on A …', async () => {
    const onA = agent(A, 'client_alternating')
    const onB = agent(B, 'client_alternating')
    const { taskId } = await onA.start({ script: checkout })
    const servers = [onB, onA]
    let turn = 0
    const other = () => servers[turn++ % 2]!
    for (let guard = 0; guard < 20; guard++) {
      const view = await other().status(taskId)
      if (view.task.status === 'SUCCEEDED') break
      if (view.task.status === 'WAITING_CONFIRMATION') {
        await other().confirm(taskId, view.pendingConfirmation!.actionId, true)
        continue
      }
      const action = await other().nextAction(taskId)
      expect((await other().report(action)).duplicate).toBe(false)
    }
    const { view, events } = await expectOneHistory(taskId)
    expect(view.task.status).toBe('SUCCEEDED')
    expect(view.steps.map((s) => s.type)).toEqual(['navigate', 'type', 'screenshot', 'click', 'scroll'])
    expect(events.some((e) => e.type === 'confirmation.answered')).toBe(true)
  })

  it('races next and report on both servers: one action in flight, none dispatched or applied twice', async () => {
    const clients = [agent(A, 'client_racing'), agent(B, 'client_racing')]
    const tasks = await Promise.all(Array.from({ length: 4 }, (_, i) => clients[i % 2]!.start({ script: checkout })))
    await Promise.all(
      tasks.map(async ({ taskId }) => {
        for (let guard = 0; guard < 20; guard++) {
          const view = await clients[guard % 2]!.status(taskId)
          if (view.task.status === 'SUCCEEDED') return
          if (view.task.status === 'WAITING_CONFIRMATION') {
            await clients[guard % 2]!.confirm(taskId, view.pendingConfirmation!.actionId, true)
            continue
          }
          const polls = await Promise.all([...clients, ...clients].map((c) => c.next(taskId, 3000)))
          const offered = polls.map((p) => p.action).filter((x): x is Action => !!x)
          if (!offered.length) continue
          expect(new Set(offered.map((x) => x.actionId)).size, 'two actions in flight at once').toBe(1)
          const replies = await Promise.all([...clients, ...clients].map((c) => c.report(offered[0]!)))
          expect(replies.filter((r) => !r.duplicate), 'a report applied twice').toHaveLength(1)
        }
        throw new Error(`task ${taskId} did not finish`)
      }),
    )
    for (const { taskId } of tasks) expect((await expectOneHistory(taskId)).view.task.status).toBe('SUCCEEDED')
  })

  it('wakes a long-poll on A when a task for its client is started on B', async () => {
    const poll = agent(A, 'client_waiting').next(undefined, 15_000)
    // Let the poll find nothing and start waiting before the task exists.
    await new Promise((resolve) => setTimeout(resolve, 300))
    const { taskId } = await agent(B, 'client_waiting').start({ script: checkout })
    expect(await poll).toMatchObject({ taskId, action: { type: 'navigate' } })
  })

  it("ends B's long-poll on a confirmation when the person pauses the task on A", async () => {
    const onB = agent(B, 'client_pausing')
    const { taskId } = await onB.start({ script: [{ type: 'click', text: 'Place order' }] })
    await onB.waitForConfirmation(taskId)
    const poll = onB.next(taskId, 15_000)
    await new Promise((resolve) => setTimeout(resolve, 300))
    await agent(A, 'client_pausing').command('pause', taskId, 'the person takes over')
    expect(await poll).toMatchObject({ taskId, status: 'PAUSED', action: null })
  })

  it('shares the clients: a task started on B without a client goes to the one last seen on A', async () => {
    await agent(A, 'client_seen_on_a').next(undefined, 0)
    const listed = await ok<{ clientId: string }[]>(B.api('GET', '/api/clients'))
    expect(listed[0]?.clientId).toBe('client_seen_on_a')
    const { taskId } = await agent(B).start({ script: checkout, clientId: null })
    expect((await agent(A).status(taskId)).task.clientId).toBe('client_seen_on_a')
  })

  it('lists the same tasks on both, and a finished task leaves both active lists', async () => {
    const onA = agent(A, 'client_lists')
    const { taskId } = await onA.start({ script: checkout })
    await agent(B, 'client_lists').command('cancel', taskId)
    expect(await onA.next(undefined, 0)).toEqual({ taskId: null, status: null, action: null })
    const [listA, listB] = await Promise.all([A.api('GET', '/api/agent/tasks'), B.api('GET', '/api/agent/tasks')])
    expect(listB.body.data).toEqual(listA.body.data)
    expect(listA.body.data.find((t: { id: string }) => t.id === taskId)?.status).toBe('CANCELED')
  })
})

describe('a server told to use a store it cannot', () => {
  it('stops at start with one line that says what to set', async () => {
    const failed = await startServer({ env: { TANDEM_STORE: 'postgres' } }).catch((error: Error) => error)
    expect(failed).toBeInstanceOf(Error)
    expect((failed as Error).message).toMatch(/exited with 1[\s\S]*\[tandem\] TANDEM_STORE must be "fs" or "redis"/)
  })
})

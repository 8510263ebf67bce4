import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createStorage } from 'unstorage'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { describeError, type ReportBody, type ScriptStep } from '#protocol'
import { createAuditLog } from '../../server/lib/audit/log'
import { resultsSince } from '../../server/lib/agent/step-results'
import { inProcessEngine } from '../support/engine'

const source = { clientId: 'c1' }
let dir: string
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'tandem-takeover-'))))
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const page = (extra: Partial<ReportBody['observation']> = {}): ReportBody['observation'] => ({
  status: 'done',
  url: 'http://shop.example/',
  title: 'Shop',
  elementTree: '[0]<button>Pay</button>',
  visibleTextSnippet: '',
  errors: [],
  timing: {},
  ...extra,
})
const takenOver = page({ status: 'failed', errors: [{ code: 'TAKEN_OVER', message: 'The person took over while this action ran.' }] })
const script: ScriptStep[] = [
  { type: 'navigate', url: 'http://shop.example/' },
  { type: 'waitFor', text: 'Order confirmed', timeoutMs: 40_000 },
  { type: 'screenshot' },
]

/** A script task whose long wait is out in the browser when the person takes over. */
async function waitingLong() {
  const engine = inProcessEngine(createStorage(), createAuditLog({ dir, fsync: false }))
  const { taskId } = await engine.start({ goal: 'wait for the order', clientId: 'c1', script }, source)
  const first = (await engine.next({ clientId: 'c1', taskId }, source)).action!
  await engine.report({ taskId, actionId: first.actionId, observation: page() }, source)
  const wait = (await engine.next({ clientId: 'c1', taskId, waitMs: 1000 }, source)).action!
  expect(wait.type).toBe('waitFor')
  expect((await engine.pause({ taskId, reason: 'takeover: the person clicked in the page' }, source)).status).toBe('PAUSED')
  return { engine, taskId, wait }
}

describe('a step ended by the person taking over', () => {
  it('is recorded as taken over: not a failure, not a slow page, and the task is not failed', async () => {
    const { engine, taskId, wait } = await waitingLong()
    expect((await engine.report({ taskId, actionId: wait.actionId, observation: takenOver }, source)).status).toBe('PAUSED')
    const view = await engine.status(taskId)
    const step = view.steps.find((s) => s.actionId === wait.actionId)!
    expect(step.outcome).toBe('taken_over')
    expect(step.errors.map((e) => e.code)).toEqual(['TAKEN_OVER'])
    expect(view.task.error).toBeUndefined()
    expect(view.task.status).toBe('PAUSED')
    // The words the panel shows for it say the person took over, never that the page was slow.
    expect(describeError(step.errors[0], 'en')).toMatch(/You took over/)
    expect(describeError(step.errors[0], 'en')).not.toMatch(/slow|too long/)
    expect(describeError(step.errors[0], 'zh-CN')).toMatch(/接管/)
  })

  it('hands the next action out at once after Resume', async () => {
    const { engine, taskId, wait } = await waitingLong()
    await engine.report({ taskId, actionId: wait.actionId, observation: takenOver }, source)
    expect((await engine.resume({ taskId }, source)).status).toBe('RUNNING')
    const started = Date.now()
    const next = await engine.next({ clientId: 'c1', taskId, waitMs: 0 }, source)
    expect(Date.now() - started).toBeLessThan(1000)
    // The wait was stopped before it saw its text: it runs again, on the page the person handed back.
    expect(next.action).toMatchObject({ type: 'waitFor', params: { text: 'Order confirmed' } })
    expect(next.action!.actionId).not.toBe(wait.actionId)
  })

  it('tells the model the person took over, not that the step failed', async () => {
    const { engine, taskId, wait } = await waitingLong()
    await engine.report({ taskId, actionId: wait.actionId, observation: takenOver }, source)
    const view = await engine.status(taskId)
    const lines = resultsSince({ steps: view.steps, lastOutcome: null } as never, 1, ['waitFor'])
    expect(lines.join('\n')).toMatch(/STOPPED when the person took over/)
    expect(lines.join('\n')).not.toMatch(/FAILED/)
  })
})

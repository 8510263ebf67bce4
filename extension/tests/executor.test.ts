import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeBrowser } from 'wxt/testing'
import { storage } from 'wxt/utils/storage'
import type { Action, ObservationInput } from '#protocol'
import { createExecutor, type ExecutorDeps } from '../lib/executor/executor'
import { activityItem, executorItem, readState, resultKey, type ExecutorState } from '../lib/executor/state'
import { ServerError } from '../lib/server/errors'
import { action, fakeServer } from './fakes'

const done = (url = 'http://shop.example/'): ObservationInput => ({ status: 'done', url, title: 'Shop', errors: [], timing: {} })

function executor(server: ReturnType<typeof fakeServer>, overrides: Partial<ExecutorDeps> = {}) {
  return createExecutor({
    server,
    execute: vi.fn(async () => done()),
    keepAlive: vi.fn(async () => ({})),
    serverUrl: async () => 'http://127.0.0.1:3000',
    sleep: async () => undefined,
    keepAliveMs: 60_000,
    ...overrides,
  })
}

/** A worker that Chrome stops in the middle of an action: the page got it, and execute never returns. */
const stoppedMidAction: ExecutorDeps['execute'] = async (_action, _state, touching) => {
  await touching()
  return new Promise<ObservationInput>(() => undefined)
}

/** A worker that Chrome stops after it took the lock, before anything reached the page. */
const stoppedBeforeTouching: ExecutorDeps['execute'] = () => new Promise<ObservationInput>(() => undefined)

beforeEach(() => fakeBrowser.reset())

describe('executor', () => {
  it('lets go of the task tab after each action’s report is sent, and after one the server could not take', async () => {
    const server = fakeServer([action()])
    const order: string[] = []
    server.report.mockImplementationOnce(async () => {
      order.push('report')
      throw new ServerError('UNREACHABLE', 'The Tandem server is not reachable.')
    })
    const afterReport = vi.fn(async () => void order.push('released'))
    const exec = executor(server, { afterReport })
    await exec.wake(true)
    expect(order).toEqual(['report', 'released'])
    await exec.wake(true)
    expect(server.reports).toHaveLength(1)
    // The leftover's report runs no action: nothing was held for it.
    expect(afterReport).toHaveBeenCalledTimes(1)
  })

  it('takes the execution lock in storage before the action touches the page, then reports and clears it', async () => {
    const server = fakeServer([action()])
    const seen: (ExecutorState['inflight'] | undefined)[] = []
    // Each write of the lock as it lands: locked first, then started once the action may reach the page.
    const unwatch = executorItem.watch((state) => seen.push(state?.inflight))
    const exec = executor(server, {
      execute: async (_action, _state, touching) => {
        await touching()
        seen.push((await readState()).inflight)
        return done()
      },
    })
    await exec.wake()
    unwatch()
    expect(seen.slice(0, 3)).toMatchObject([
      { actionId: 'act1', phase: 'locked' },
      { actionId: 'act1', phase: 'started' },
      { actionId: 'act1', phase: 'started' },
    ])
    expect(server.reports).toHaveLength(1)
    expect(server.reports[0]).toMatchObject({ taskId: 'task1', actionId: 'act1', observation: { status: 'done' } })
    const after = await readState()
    expect(after.inflight).toBeNull()
    expect(after.reported).toEqual(['act1'])
  })

  it('runs actions one after another and polls again right after each report', async () => {
    const server = fakeServer([action(), action({ actionId: 'act2', seq: 2 }), action({ actionId: 'act3', seq: 3 })])
    const execute = vi.fn(async (a: Action) => done(`http://shop.example/${a.seq}`))
    await executor(server, { execute }).wake()
    expect(execute.mock.calls.map(([a]) => a.actionId)).toEqual(['act1', 'act2', 'act3'])
    expect(server.reports.map((r) => r.actionId)).toEqual(['act1', 'act2', 'act3'])
    // After each report it asks for that task's next step by id, and only then for any task.
    expect(server.next.mock.calls.map(([body]) => body.taskId ?? '*')).toEqual(['*', 'task1', 'task1', 'task1', '*'])
  })

  it('runs the next action the server handed over with its report without polling for it', async () => {
    const server = fakeServer([action(), action({ actionId: 'act2', seq: 2 }), action({ actionId: 'act3', seq: 3 })])
    server.handOver(true)
    const execute = vi.fn(async (a: Action) => done(`http://shop.example/${a.seq}`))
    await executor(server, { execute }).wake()
    expect(execute.mock.calls.map(([a]) => a.actionId)).toEqual(['act1', 'act2', 'act3'])
    expect(server.reports.map((r) => [r.actionId, r.takeNext])).toEqual([['act1', true], ['act2', true], ['act3', true]])
    // One poll for the first action, none in between, and the last report handed nothing: polls go on as before.
    expect(server.next.mock.calls.map(([body]) => body.taskId ?? '*')).toEqual(['*', 'task1', '*'])
  })

  it('lets a reported step go in the same write as the lock of the step handed over with its report', async () => {
    const server = fakeServer([action(), action({ actionId: 'act2', seq: 2 })])
    server.handOver(true)
    const writes: ExecutorState[] = []
    const unwatch = executorItem.watch((state) => writes.push(state))
    await storage.setItem(resultKey('act1'), { actionId: 'act1', status: 'done', errors: [], timing: { actMs: 1 } })
    await executor(server, { execute: async () => done() }).wake()
    unwatch()
    const locked = writes.findIndex((w) => w.inflight?.actionId === 'act2' && w.inflight.phase === 'locked')
    // act1 is never shown as in flight after its report and before act2's lock: one write does both.
    expect(writes[locked]).toMatchObject({ reported: ['act1'], inflight: { actionId: 'act2', phase: 'locked' } })
    expect(writes[locked - 1]).toMatchObject({ inflight: { actionId: 'act1', phase: 'finished' } })
    expect(await readState()).toMatchObject({ inflight: null, reported: ['act1', 'act2'] })
    expect(await storage.getItem(resultKey('act1'))).toBeNull()
    expect(await activityItem.getValue()).toMatchObject({ lastAction: { actionId: 'act2', status: 'done' } })
  })

  it('after a stop between a report and the next lock, reports the step again and runs the handed one once', async () => {
    const server = fakeServer([action(), action({ actionId: 'act2', seq: 2 })])
    server.handOver(true)
    // act1 was reported and act2 handed over with the reply; the worker stopped before act2's lock let act1 go.
    const observation = done()
    await server.report({ taskId: 'task1', actionId: 'act1', observation, takeNext: true })
    const finished = { taskId: 'task1', actionId: 'act1', type: 'click' as const, tabId: 1, startedAt: 0, graceMs: 30_000, phase: 'finished' as const, observation: observation as never }
    await executorItem.setValue({ inflight: finished, tasks: {}, reported: [] })
    const execute = vi.fn(async (_action: Action) => done())
    await executor(server, { execute }).wake()
    // The second report of act1 is the same report to the server; act2 runs once.
    expect(server.reports.map((r) => r.actionId)).toEqual(['act1', 'act1', 'act2'])
    expect(execute.mock.calls.map(([a]) => a.actionId)).toEqual(['act2'])
    expect(await readState()).toMatchObject({ inflight: null, reported: ['act1', 'act2'] })
  })

  it('keeps asking for the task it works on even when a poll for any task briefly sees none', async () => {
    const server = fakeServer([action(), action({ actionId: 'act2', seq: 2 })])
    const execute = vi.fn(async () => done())
    const next = server.next.getMockImplementation()!
    server.next.mockImplementation(async (body) => (body.taskId ? next(body) : server.reports.length ? { taskId: null, status: null, action: null } : next(body)))
    await executor(server, { execute }).wake()
    expect(execute).toHaveBeenCalledTimes(2)
  })

  it('after a stop mid-action, reports the result the page stored instead of running the action again', async () => {
    const server = fakeServer([action()])
    void executor(server, { execute: stoppedMidAction }).wake()
    await vi.waitFor(async () => expect((await readState()).inflight?.phase).toBe('started'))
    // The content script finished meanwhile and left its result in storage.
    await storage.setItem(resultKey('act1'), {
      actionId: 'act1',
      status: 'done',
      errors: [],
      page: { url: 'http://shop.example/cart', title: 'Cart', elementTree: '[0]<button>Pay</button>', visibleTextSnippet: 'Cart' },
      timing: { actMs: 12 },
    })
    const execute = vi.fn(async () => done())
    await executor(server, { execute }).wake()
    expect(execute).not.toHaveBeenCalled()
    expect(server.reports).toHaveLength(1)
    expect(server.reports[0].observation).toMatchObject({ status: 'done', url: 'http://shop.example/cart', title: 'Cart' })
    expect(server.reports[0].observation.timing).toMatchObject({ recovered: 1, 'page.actMs': 12 })
    expect(await storage.getItem(resultKey('act1'))).toBeNull()
  })

  it('runs an action once more, when it is delivered again, if the stopped worker never let it reach the page', async () => {
    const server = fakeServer([action()])
    void executor(server, { execute: stoppedBeforeTouching }).wake()
    await vi.waitFor(async () => expect((await readState()).inflight?.phase).toBe('locked'))
    const sleep = vi.fn(async () => undefined)
    const execute = vi.fn(async (_action: Action) => done('http://shop.example/ran'))
    await executor(server, { execute, sleep }).wake()
    // No wait for a page result that can never come: the server's next delivery of the same action runs it.
    expect(sleep).not.toHaveBeenCalled()
    expect(execute).toHaveBeenCalledTimes(1)
    expect(execute.mock.calls[0][0].actionId).toBe('act1')
    expect(server.reports).toHaveLength(1)
    expect(server.reports[0]).toMatchObject({ actionId: 'act1', observation: { status: 'done', url: 'http://shop.example/ran' } })
  })

  it('declares the outcome unknown (TIMEOUT) when no result arrives within the grace period, and never re-runs', async () => {
    const server = fakeServer([action()])
    let clock = 1_000_000
    void executor(server, { execute: stoppedMidAction, now: () => clock }).wake()
    await vi.waitFor(async () => expect((await readState()).inflight?.phase).toBe('started'))
    const execute = vi.fn(async () => done())
    const sleep = vi.fn(async () => {
      clock += 10_000
    })
    await executor(server, { execute, now: () => clock, sleep }).wake()
    expect(execute).not.toHaveBeenCalled()
    expect(sleep).toHaveBeenCalled() // it waited for the page first
    expect(server.reports[0].observation).toMatchObject({ status: 'failed', errors: [{ code: 'TIMEOUT' }] })
    expect(server.reports[0].observation.errors![0].message).toMatch(/outcome is unknown/)
  })

  it('re-reports a finished result that a stopped worker never got to report', async () => {
    const server = fakeServer([action()])
    server.report.mockImplementationOnce(() => new Promise(() => undefined)) // stopped while reporting
    const first = vi.fn(async () => done('http://shop.example/done'))
    void executor(server, { execute: first }).wake()
    await vi.waitFor(async () => expect((await readState()).inflight?.phase).toBe('finished'))
    const second = vi.fn(async () => done())
    await executor(server, { execute: second }).wake()
    expect(first).toHaveBeenCalledTimes(1)
    expect(second).not.toHaveBeenCalled()
    expect(server.reports).toHaveLength(1)
    expect(server.reports[0].observation.url).toBe('http://shop.example/done')
  })

  it('never runs an action twice even when the server offers it again', async () => {
    const server = fakeServer([action()])
    const execute = vi.fn(async () => done())
    await executor(server, { execute }).wake()
    // The server lost the report and offers the same action again.
    server.queue.push(action())
    server.report.mockImplementationOnce(async (body) => {
      server.reports.push(body)
      server.queue.shift()
      return { accepted: true, duplicate: true, status: 'RUNNING' }
    })
    await executor(server, { execute }).wake()
    expect(execute).toHaveBeenCalledTimes(1)
    expect(server.reports[1].observation.errors![0].message).toMatch(/never runs an action twice/)
  })

  it('keeps a result while the server is down, says so, backs off, and reports it once the server is back', async () => {
    const server = fakeServer([action()])
    server.report.mockRejectedValueOnce(new (await import('../lib/server/errors')).ServerError('UNREACHABLE', 'down'))
    server.report.mockRejectedValueOnce(new (await import('../lib/server/errors')).ServerError('UNREACHABLE', 'down'))
    server.report.mockRejectedValueOnce(new (await import('../lib/server/errors')).ServerError('UNREACHABLE', 'down'))
    const execute = vi.fn(async () => done())
    let clock = 5_000_000
    const exec = executor(server, { execute, now: () => clock })
    await exec.wake()
    expect(server.report).toHaveBeenCalledTimes(3) // one call and two quick retries
    const activity = await activityItem.getValue()
    expect(activity).toMatchObject({ connection: 'down', failures: 1, retryAt: clock + 30_000 })
    expect(activity.message).toMatch(/not reachable|down/)
    expect((await readState()).inflight?.phase).toBe('finished')

    // The alarm fires before the back-off is over: the server is left alone.
    clock += 10_000
    await exec.wake()
    expect(server.report).toHaveBeenCalledTimes(3)

    clock += 25_000
    await exec.wake()
    expect(execute).toHaveBeenCalledTimes(1)
    expect(server.reports).toHaveLength(1)
    expect(await activityItem.getValue()).toMatchObject({ connection: 'ok', failures: 0 })
  })

  it('a forced wake (the person clicked) ignores the back-off', async () => {
    const server = fakeServer([action()])
    server.setDown(true)
    const exec = executor(server)
    await exec.wake()
    expect((await activityItem.getValue()).connection).toBe('down')
    const calls = server.next.mock.calls.length
    await exec.wake()
    expect(server.next.mock.calls.length).toBe(calls)
    server.setDown(false)
    await exec.wake(true)
    expect(server.reports).toHaveLength(1)
  })

  it('says when the token is wrong and stops asking until the person changes something', async () => {
    const { ServerError } = await import('../lib/server/errors')
    const server = fakeServer([action()])
    server.next.mockRejectedValue(new ServerError('UNAUTHORIZED', 'Missing or wrong token.', 401))
    const exec = executor(server)
    await exec.wake()
    expect(await activityItem.getValue()).toMatchObject({ connection: 'unauthorized' })
    expect((await activityItem.getValue()).message).toMatch(/token/)
    await exec.wake()
    expect(server.next).toHaveBeenCalledTimes(1)
  })

  it('drops a result the server will never take (the action is no longer in flight)', async () => {
    const { ServerError } = await import('../lib/server/errors')
    const server = fakeServer([action()])
    server.report.mockRejectedValueOnce(new ServerError('CONFLICT', 'That action is not the one in flight for this task.', 409))
    server.setStatus(null)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    await executor(server).wake()
    expect((await readState()).inflight).toBeNull()
    expect(warn).toHaveBeenCalled()
  })

  it('keeps long-polling while a task is active, pinging an extension API, and stops when there is nothing left', async () => {
    const server = fakeServer([])
    let polls = 0
    server.next.mockImplementation(async () => {
      polls += 1
      await new Promise((r) => setTimeout(r, 30))
      if (polls < 3) return { taskId: 'task1', status: 'WAITING_CONFIRMATION', action: null }
      return { taskId: 'task1', status: 'SUCCEEDED', action: null }
    })
    const keepAlive = vi.fn(async () => ({}))
    await executor(server, { keepAlive, keepAliveMs: 10 }).wake()
    expect(polls).toBe(3)
    expect(server.next.mock.calls[0][0]).toMatchObject({ waitMs: 20_000 })
    expect(keepAlive.mock.calls.length).toBeGreaterThan(2)
    expect(await activityItem.getValue()).toMatchObject({ task: { taskId: 'task1', status: 'SUCCEEDED' } })
  })

  it('shares one loop between concurrent wakes', async () => {
    const server = fakeServer([action()])
    const execute = vi.fn(async () => done())
    const exec = executor(server, { execute })
    await Promise.all([exec.wake(), exec.wake(), exec.wake()])
    expect(execute).toHaveBeenCalledTimes(1)
  })

  it('remembers which site needs authorising after PERMISSION_DENIED', async () => {
    const server = fakeServer([action({ type: 'navigate', params: { url: 'http://shop.test/' } })])
    const execute = vi.fn(async () => ({
      status: 'failed' as const,
      url: 'http://shop.test/',
      errors: [{ code: 'PERMISSION_DENIED' as const, message: 'no' }],
    }))
    await executor(server, { execute }).wake()
    expect(await activityItem.getValue()).toMatchObject({ needsSite: { taskId: 'task1', origin: 'http://shop.test' } })
  })

  it('remembers the site the page was on when the refused step would have left it for another', async () => {
    const server = fakeServer([action({ type: 'click', params: { index: 3 } })])
    const execute = vi.fn(async () => ({
      status: 'failed' as const,
      url: 'http://shop.test/cart',
      errors: [{ code: 'PERMISSION_DENIED' as const, message: 'would leave', origin: 'http://evil.test' }],
    }))
    await executor(server, { execute }).wake()
    const site = (await activityItem.getValue()).needsSite
    expect(site).toEqual({ taskId: 'task1', origin: 'http://evil.test', from: 'http://shop.test' })
  })
})

describe('wakes while the loop runs', () => {
  it('runs once more afterwards, forced if any of them was forced', async () => {
    const server = fakeServer([])
    const { ServerError } = await import('../lib/server/errors')
    let release!: () => void
    let calls = 0
    server.next.mockImplementation(async () => {
      calls += 1
      if (calls === 1) await new Promise<void>((r) => (release = r))
      if (calls <= 3) throw new ServerError('UNREACHABLE', 'down')
      return { taskId: null, status: null, action: null }
    })
    const exec = executor(server)
    const first = exec.wake()
    await vi.waitFor(() => expect(release).toBeDefined())
    void exec.wake(true) // the person clicked while the loop was stuck on a dead server
    release()
    await first
    // Down after the first loop (three tries), yet the forced wake still asked again.
    expect(server.next.mock.calls.length).toBeGreaterThanOrEqual(4)
    expect((await activityItem.getValue()).connection).toBe('ok')
  })

  it('tells the task status it sees, from each report and each poll, before the action runs', async () => {
    const server = fakeServer([action()])
    const seen: string[] = []
    const onStatus = vi.fn(async (taskId: string | null, status: string | null) => void seen.push(`${taskId}:${status}`))
    const execute = vi.fn(async () => {
      seen.push('run')
      return done()
    })
    await executor(server, { execute, onStatus }).wake()
    expect(seen.slice(0, 3)).toEqual(['task1:RUNNING', 'run', 'task1:RUNNING'])
    expect(seen.at(-1)).toBe('null:null')
  })

  it('goes on working when following the status fails', async () => {
    const server = fakeServer([action(), action({ actionId: 'act2', seq: 2 })])
    const onStatus = vi.fn(async () => {
      throw new Error('no badge today')
    })
    await executor(server, { onStatus }).wake()
    expect(server.reports.map((r) => r.actionId)).toEqual(['act1', 'act2'])
  })
})

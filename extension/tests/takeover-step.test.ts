import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeBrowser } from 'wxt/testing'
import type { StorageItemKey } from 'wxt/utils/storage'
import type { ObservationInput, StatusView, TaskStatus } from '#protocol'
import { createContentHandler, type PageLib } from '../lib/content/handler'
import { createExecutor } from '../lib/executor/executor'
import type { ActOutcome, StopWhy } from '../lib/messages'
import { createTaskChanges } from '../lib/worker/task-changes'
import { createTaskOrder } from '../lib/worker/task-order'
import { action, fakeServer } from './fakes'

/**
 * The worker, the task's page and the server around one long wait (40 s): the page's step runs in a real content
 * handler that only ends when its text shows or the worker stops it; the worker stops it the way createWorker does.
 */
function setup() {
  let status: TaskStatus = 'RUNNING'
  const server = fakeServer([action({ type: 'waitFor', params: { text: 'Order confirmed', timeoutMs: 40_000 } })])
  const store = new Map<string, unknown>()
  const page: PageLib<number> = {
    observe: () => ({ url: 'http://shop.example/', title: 'Shop', elementTree: '[0]<button>Pay</button>', visibleTextSnippet: 'Pay', memory: 1 }),
    // The text never shows: only a stop ends the wait before its 40 s.
    act: () => new Promise(() => undefined),
    mask: () => () => undefined,
    locate: () => ({}),
  }
  const win = { requestAnimationFrame: (cb: () => void) => setTimeout(cb, 1), document: { visibilityState: 'visible' } } as unknown as Window
  const content = createContentHandler({
    win,
    page,
    store: { get: async (k: StorageItemKey) => store.get(k) ?? null, set: async (k: StorageItemKey, v: unknown) => void store.set(k, v) },
  })
  const execute = vi.fn(async (a: ReturnType<typeof action>): Promise<ObservationInput> => {
    const outcome = (await content.handle({ kind: 'act', action: a, resultKey: `local:tandem.result.${a.actionId}` })) as ActOutcome
    const { page: state, status: done, errors } = outcome
    return { status: done, url: state?.url ?? '', errors, timing: {} }
  })
  const stopAction = vi.fn(async (_taskId: string, why: StopWhy = 'stopped') => {
    const reply = (await content.handle({ kind: 'stop', actionId: 'act1', why })) as { stopped: boolean }
    return reply.stopped
  })
  const changes = createTaskChanges({
    server: { status: async (taskId: string) => ({ task: { id: taskId, goal: 'g', status } }) as unknown as StatusView },
    stopAction,
    follow: async () => undefined,
    order: createTaskOrder(),
  })
  const executor = createExecutor({
    server,
    execute,
    keepAlive: async () => ({}),
    serverUrl: async () => 'http://127.0.0.1:3000',
    sleep: async () => undefined,
    keepAliveMs: 60_000,
    watch: changes.watch,
  })
  return { server, execute, stopAction, changes, executor, set: (next: TaskStatus) => void (status = next) }
}

beforeEach(() => fakeBrowser.reset())
afterEach(() => vi.useRealTimers())

describe('taking over ends the step in flight at once', () => {
  it('the panel’s Pause ends a 40 s wait now, and its report says taken over, not failed nor slow', async () => {
    const { server, execute, stopAction, changes, executor, set } = setup()
    const woken = executor.wake()
    await vi.waitFor(() => expect(execute).toHaveBeenCalledTimes(1))
    const started = Date.now()
    set('PAUSED')
    // What the panel's "task-changed" message runs in the worker, right after the server paused the task.
    expect(await changes.changed('task1')).toEqual({ status: 'PAUSED', stopped: true })
    await woken
    expect(Date.now() - started).toBeLessThan(1000)
    expect(stopAction).toHaveBeenCalledWith('task1', 'taken-over')
    expect(server.reports).toHaveLength(1)
    const { observation } = server.reports[0]
    expect(observation.errors?.map((e) => e.code)).toEqual(['TAKEN_OVER'])
    expect(JSON.stringify(observation)).not.toMatch(/TIMEOUT|slow|took too long/)
  })

  it('a pause made elsewhere (the console, the API) ends the wait within the watch’s next look', async () => {
    vi.useFakeTimers()
    const { server, execute, stopAction, executor, set } = setup()
    const woken = executor.wake()
    await vi.advanceTimersByTimeAsync(100)
    expect(execute).toHaveBeenCalledTimes(1)
    set('PAUSED')
    await vi.advanceTimersByTimeAsync(2000)
    await woken
    expect(stopAction).toHaveBeenCalledWith('task1', 'taken-over')
    expect(server.reports).toHaveLength(1)
    expect(server.reports[0].observation.errors?.[0]?.code).toBe('TAKEN_OVER')
  })

  it('Resume goes on at once: the woken worker runs the next step without waiting for an alarm', async () => {
    const { server, execute, changes, executor, set } = setup()
    const woken = executor.wake()
    await vi.waitFor(() => expect(execute).toHaveBeenCalledTimes(1))
    set('PAUSED')
    await changes.changed('task1')
    await woken
    // The server hands out the next step once resumed; the panel then wakes the worker (WorkerRequest "wake", forced).
    execute.mockImplementationOnce(async () => ({ status: 'done', url: 'http://shop.example/', errors: [], timing: {} }))
    server.queue.push(action({ actionId: 'act2', seq: 2, type: 'waitFor', params: { text: 'Order confirmed' } }))
    set('RUNNING')
    const started = Date.now()
    await executor.wake(true)
    expect(execute).toHaveBeenCalledTimes(2)
    expect(server.reports.map((r) => r.actionId)).toEqual(['act1', 'act2'])
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('a task canceled meanwhile still ends its step as stopped', async () => {
    const { server, execute, changes, executor, set } = setup()
    const woken = executor.wake()
    await vi.waitFor(() => expect(execute).toHaveBeenCalledTimes(1))
    set('CANCELED')
    await changes.changed('task1')
    await woken
    expect(server.reports[0].observation.errors?.map((e) => e.code)).toEqual(['ACTION_FAILED'])
  })
})

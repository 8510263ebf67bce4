import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeBrowser } from 'wxt/testing'
import type { ObservationInput, StatusView, TaskStatus } from '#protocol'
import { createExecutor } from '../lib/executor/executor'
import { activityItem } from '../lib/executor/state'
import { ServerError } from '../lib/server/errors'
import { createTaskChanges } from '../lib/worker/task-changes'
import { createTaskOrder } from '../lib/worker/task-order'
import { action, fakeServer } from './fakes'

function setup(initial: TaskStatus | null) {
  let status = initial
  const server = {
    status: vi.fn(async (taskId: string) => {
      if (!status) throw new ServerError('UNREACHABLE', 'down')
      return { task: { id: taskId, goal: 'g', status } } as unknown as StatusView
    }),
  }
  const stopAction = vi.fn(async (_taskId: string) => true)
  const follow = vi.fn(async (_taskId: string, _status: TaskStatus, _place: number) => undefined)
  const changes = createTaskChanges({ server, stopAction, follow, order: createTaskOrder(), everyMs: 2000 })
  return { changes, server, stopAction, follow, set: (next: TaskStatus | null) => void (status = next) }
}

beforeEach(() => fakeBrowser.reset())
afterEach(() => vi.useRealTimers())

describe('task changes made away from the page', () => {
  it('ends the step in the page of a task the panel canceled, and follows the new status', async () => {
    const { changes, stopAction, follow } = setup('CANCELED')
    expect(await changes.changed('task1')).toEqual({ status: 'CANCELED', stopped: true })
    expect(stopAction).toHaveBeenCalledWith('task1', 'stopped')
    expect(follow).toHaveBeenCalledWith('task1', 'CANCELED', expect.any(Number))
    expect((await activityItem.getValue()).task).toEqual({ taskId: 'task1', status: 'CANCELED' })
  })

  it('follows a resumed task without touching its step, and ends the step of a paused one as taken over', async () => {
    const { changes, stopAction, follow, set } = setup('RUNNING')
    expect(await changes.changed('task1')).toEqual({ status: 'RUNNING', stopped: false })
    expect(stopAction).not.toHaveBeenCalled()
    set('PAUSED')
    expect(await changes.changed('task1')).toEqual({ status: 'PAUSED', stopped: true })
    expect(stopAction).toHaveBeenCalledWith('task1', 'taken-over')
    expect(follow.mock.calls.map(([, status]) => status)).toEqual(['RUNNING', 'PAUSED'])
  })

  it('changes nothing when the server cannot say what the task is', async () => {
    const { changes, stopAction, follow } = setup(null)
    expect(await changes.changed('task1')).toEqual({ status: null, stopped: false })
    expect(stopAction).not.toHaveBeenCalled()
    expect(follow).not.toHaveBeenCalled()
  })

  it('looks at the task every few seconds while an in-page step runs, and stops the step once the task was canceled', async () => {
    vi.useFakeTimers()
    const { changes, server, stopAction, follow, set } = setup('RUNNING')
    const unwatch = changes.watch(action({ type: 'waitFor' }))
    expect(server.status).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(2000)
    await vi.advanceTimersByTimeAsync(2000)
    expect(server.status).toHaveBeenCalledTimes(2)
    // The same status twice is followed once.
    expect(follow.mock.calls.map(([, status]) => status)).toEqual(['RUNNING'])
    expect(stopAction).not.toHaveBeenCalled()
    set('CANCELED')
    await vi.advanceTimersByTimeAsync(2000)
    expect(stopAction).toHaveBeenCalledWith('task1', 'stopped')
    expect(follow).toHaveBeenLastCalledWith('task1', 'CANCELED', expect.any(Number))
    await vi.advanceTimersByTimeAsync(10_000)
    expect(server.status).toHaveBeenCalledTimes(3)
    unwatch()
  })

  it('keeps watching through a server that does not answer, and never watches steps the worker runs itself', async () => {
    vi.useFakeTimers()
    const { changes, server, stopAction, set } = setup(null)
    const unwatch = changes.watch(action({ type: 'extract' }))
    await vi.advanceTimersByTimeAsync(4000)
    expect(server.status).toHaveBeenCalledTimes(2)
    set('CANCELED')
    await vi.advanceTimersByTimeAsync(2000)
    expect(stopAction).toHaveBeenCalledTimes(1)
    unwatch()

    server.status.mockClear()
    const navigate = changes.watch(action({ type: 'navigate' }))
    await vi.advanceTimersByTimeAsync(10_000)
    expect(server.status).not.toHaveBeenCalled()
    navigate()
  })

  it('stops looking once the step is over', async () => {
    vi.useFakeTimers()
    const { changes, server } = setup('RUNNING')
    const unwatch = changes.watch(action({ type: 'waitFor' }))
    await vi.advanceTimersByTimeAsync(2000)
    unwatch()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(server.status).toHaveBeenCalledTimes(1)
  })
})

describe('the executor with task changes', () => {
  it('ends a long wait of a task canceled through the API and reports it as stopped', async () => {
    vi.useFakeTimers()
    const server = fakeServer([action({ type: 'waitFor', params: { text: 'Finished', timeoutMs: 60_000 } })])
    let endStep: (observation: ObservationInput) => void = () => undefined
    const execute = vi.fn(() => new Promise<ObservationInput>((resolve) => (endStep = resolve)))
    let status: TaskStatus = 'RUNNING'
    const status$ = vi.fn(async (taskId: string) => ({ task: { id: taskId, goal: 'g', status } }) as unknown as StatusView)
    const stopAction = vi.fn(async () => {
      endStep({ status: 'failed', url: 'http://shop.example/', errors: [{ code: 'ACTION_FAILED', message: 'The task was stopped while this action ran.' }], timing: {} })
      return true
    })
    const changes = createTaskChanges({ server: { status: status$ }, stopAction, follow: async () => undefined, order: createTaskOrder() })
    const exec = createExecutor({
      server,
      execute,
      keepAlive: async () => ({}),
      serverUrl: async () => 'http://127.0.0.1:3000',
      sleep: async () => undefined,
      keepAliveMs: 60_000,
      watch: changes.watch,
    })
    const woken = exec.wake()
    await vi.advanceTimersByTimeAsync(2000)
    expect(execute).toHaveBeenCalledTimes(1)
    expect(server.reports).toHaveLength(0)
    status = 'CANCELED'
    await vi.advanceTimersByTimeAsync(2000)
    await woken
    expect(stopAction).toHaveBeenCalledWith('task1', 'stopped')
    expect(server.reports).toHaveLength(1)
    expect(server.reports[0].observation).toMatchObject({ status: 'failed', errors: [{ message: expect.stringMatching(/stopped/) }] })
    // The watch ended with the step: no more looks at the task.
    const looks = status$.mock.calls.length
    await vi.advanceTimersByTimeAsync(10_000)
    expect(status$.mock.calls.length).toBe(looks)
  })
})

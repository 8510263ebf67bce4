import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeBrowser } from 'wxt/testing'
import type { StatusView, TaskStatus } from '#protocol'
import { activityItem, EMPTY_STATE, type ExecutorState } from '../lib/executor/state'
import { ServerError } from '../lib/server/errors'
import { createTakeover } from '../lib/worker/takeover'
import { createTaskOrder } from '../lib/worker/task-order'

const state: ExecutorState = { ...EMPTY_STATE, tasks: { task1: { tabId: 7, closed: false, at: 1 }, old: { tabId: 8, closed: true, at: 0 } } }

/** The engine's pause / resume / cancel rules, for one task. */
function fakeServer(initial: TaskStatus) {
  let status = initial
  const conflict = (message: string) => new ServerError('CONFLICT', message, 409)
  return {
    status: vi.fn(async (taskId: string) => ({ task: { id: taskId, goal: 'g', status } }) as unknown as StatusView),
    pause: vi.fn(async (_body: { taskId: string; reason?: string }) => {
      if (status === 'PAUSED') throw conflict('This task is already paused.')
      status = 'PAUSED'
      return { status }
    }),
    resume: vi.fn(async (_body: { taskId: string; reason?: string }) => {
      if (status !== 'PAUSED') throw conflict('Only a paused task can be resumed.')
      status = 'RUNNING'
      return { status }
    }),
    cancel: vi.fn(async (_body: { taskId: string; reason?: string }) => {
      status = 'CANCELED'
      return { status }
    }),
  }
}

function setup(initial: TaskStatus) {
  const server = fakeServer(initial)
  const wake = vi.fn()
  const stopAction = vi.fn(async () => undefined)
  const release = vi.fn(async () => undefined)
  const takeover = createTakeover({ server, wake, stopAction, release, order: createTaskOrder(), readState: async () => state, now: () => 1000 })
  return { server, wake, stopAction, release, takeover }
}

beforeEach(() => fakeBrowser.reset())

describe('takeover in the worker', () => {
  it('lets go of the task tab (its navigation guard and debugger) once the task is paused: the person goes wherever they like', async () => {
    const { release, takeover } = setup('RUNNING')
    await takeover.handle({ kind: 'takeover', input: 'key' }, 7)
    expect(release).toHaveBeenCalledTimes(1)
    expect(release).toHaveBeenCalledWith('task1')
    const waiting = setup('WAITING_CONFIRMATION')
    await waiting.takeover.handle({ kind: 'takeover', input: 'key' }, 7)
    expect(waiting.release).not.toHaveBeenCalled()
  })

  it('ends the step in flight as taken over the moment the person’s input pauses the task', async () => {
    const { stopAction, takeover } = setup('RUNNING')
    await takeover.handle({ kind: 'takeover', input: 'pointer' }, 7)
    expect(stopAction).toHaveBeenCalledWith('task1', 'taken-over')
    const waiting = setup('WAITING_CONFIRMATION')
    await waiting.takeover.handle({ kind: 'takeover', input: 'pointer' }, 7)
    expect(waiting.stopAction).not.toHaveBeenCalled()
  })

  it('pauses a running task with the takeover reason and says so in the activity', async () => {
    const { server, takeover } = setup('RUNNING')
    expect(await takeover.handle({ kind: 'takeover', input: 'pointer' }, 7)).toEqual({ state: 'takeover' })
    expect(server.pause).toHaveBeenCalledWith({ taskId: 'task1', reason: 'takeover: the person clicked in the page' })
    const activity = await activityItem.getValue()
    expect(activity.takeover).toEqual({ taskId: 'task1', input: 'pointer', reason: 'takeover: the person clicked in the page', at: 1000 })
    expect(activity.task).toEqual({ taskId: 'task1', status: 'PAUSED' })
  })

  it('pauses once for a burst of input', async () => {
    const { server, takeover } = setup('RUNNING')
    const replies = await Promise.all([
      takeover.handle({ kind: 'takeover', input: 'key' }, 7),
      takeover.handle({ kind: 'takeover', input: 'key' }, 7),
      takeover.handle({ kind: 'takeover', input: 'wheel' }, 7),
    ])
    expect(replies).toEqual([{ state: 'takeover' }, { state: 'takeover' }, { state: 'takeover' }])
    await takeover.handle({ kind: 'takeover', input: 'pointer' }, 7)
    expect(server.pause).toHaveBeenCalledTimes(1)
  })

  it.each([
    ['WAITING_CONFIRMATION', 'approval'],
    ['WAITING_USER', 'question'],
    ['PAUSED', 'takeover'],
    ['SUCCEEDED', 'idle'],
    ['CANCELED', 'idle'],
  ] as const)('does not pause a task that is %s', async (status, shown) => {
    const { server, takeover } = setup(status)
    expect(await takeover.handle({ kind: 'takeover', input: 'pointer' }, 7)).toEqual({ state: shown })
    expect(server.pause).not.toHaveBeenCalled()
  })

  it('ignores tabs that belong to no task, or to a task whose tab was closed', async () => {
    const { server, takeover } = setup('RUNNING')
    expect(await takeover.handle({ kind: 'takeover', input: 'pointer' }, 99)).toEqual({ state: 'idle' })
    expect(await takeover.handle({ kind: 'takeover', input: 'pointer' }, 8)).toEqual({ state: 'idle' })
    expect(server.status).not.toHaveBeenCalled()
  })

  it('keeps the agent in control when the server cannot be reached', async () => {
    const { server, takeover } = setup('RUNNING')
    server.pause.mockRejectedValueOnce(new ServerError('UNREACHABLE', 'down'))
    expect(await takeover.handle({ kind: 'takeover', input: 'pointer' }, 7)).toEqual({ state: 'ongoing' })
  })

  it('resumes from the page and pulls the next step at once', async () => {
    const { server, takeover, wake } = setup('RUNNING')
    await takeover.handle({ kind: 'takeover', input: 'pointer' }, 7)
    expect(await takeover.handle({ kind: 'indicator-command', command: 'resume' }, 7)).toEqual({ state: 'ongoing' })
    expect(server.resume).toHaveBeenCalledWith({ taskId: 'task1', reason: 'the person handed control back from the page' })
    expect(wake).toHaveBeenCalled()
    expect((await activityItem.getValue()).takeover).toBeNull()
  })

  it('stops the task from the page and ends its running step', async () => {
    const { server, takeover, stopAction, wake } = setup('PAUSED')
    expect(await takeover.handle({ kind: 'indicator-command', command: 'stop' }, 7)).toEqual({ state: 'idle' })
    expect(server.cancel).toHaveBeenCalledWith({ taskId: 'task1', reason: 'the person stopped the task from the page' })
    expect(stopAction).toHaveBeenCalledWith('task1')
    expect(wake).not.toHaveBeenCalled()
  })

  it('shows what the task really is when a resume is refused', async () => {
    const { takeover } = setup('SUCCEEDED')
    expect(await takeover.handle({ kind: 'indicator-command', command: 'resume' }, 7)).toEqual({ state: 'idle' })
  })
})

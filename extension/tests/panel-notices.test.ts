import { describe, expect, it } from 'vitest'
import { ServerError } from '../lib/server/errors'
import { setupPanel as setup, view } from './panel-fakes'

/** A call whose answer the test lets come when it likes. */
function later<T>() {
  let settle: (value: T) => void = () => undefined
  let fail: (error: unknown) => void = () => undefined
  const promise = new Promise<T>((resolve, reject) => ((settle = resolve), (fail = reject)))
  return { promise, settle, fail }
}

const twoTasks = () => ({ task1: view('RUNNING'), task2: view('RUNNING', {}, 'task2') })

/**
 * Cancels task1, switches to task2 before the answer comes, then goes back: the notice each of them showed once the
 * answer was in.
 */
async function cancelAnsweredElsewhere(lang: 'en' | 'zh-CN') {
  const { store, client } = setup({ views: twoTasks(), lang })
  await store.load()
  const canceled = later<{ status: 'CANCELED' }>()
  client.cancel.mockImplementationOnce(() => canceled.promise)
  const cancel = store.task.cancel()
  await store.task.follow('task2')
  canceled.settle({ status: 'CANCELED' })
  await cancel
  const onOther = store.notice.value
  await store.task.follow('task1')
  return { onOther, onOwn: store.notice.value }
}

describe('panel notices belong to their task', () => {
  it('an answer that comes after the person switched tasks stays with the task it was about', async () => {
    const { onOther, onOwn } = await cancelAnsweredElsewhere('en')
    // "Canceled." would read as news about task2, which is still running.
    expect(onOther).toBeNull()
    expect(onOwn).toEqual({ text: 'Canceled.', tone: 'info' })
  })

  it('a failure of a command on one task is not shown above another', async () => {
    const { store, client } = setup({ views: twoTasks() })
    await store.load()
    const paused = later<{ status: 'PAUSED' }>()
    client.pause.mockImplementationOnce(() => paused.promise)
    const pause = store.task.pause()
    await store.task.follow('task2')
    paused.fail(new ServerError('CONFLICT', 'This task is already paused.', 409))
    await pause
    expect(store.notice.value).toBeNull()
    await store.task.follow('task1')
    expect(store.notice.value?.tone).toBe('error')
  })

  it('a notice about the connection shows whichever task is followed', async () => {
    const { store, client } = setup({ views: twoTasks() })
    await store.load()
    client.health.mockRejectedValueOnce(new ServerError('UNREACHABLE', 'x'))
    await store.connection.test()
    expect(store.notice.value).toEqual({ text: expect.stringMatching(/not reachable/), tone: 'error' })
    await store.task.follow('task2')
    expect(store.notice.value).toEqual({ text: expect.stringMatching(/not reachable/), tone: 'error' })
  })

  it('says a new task started above that task, not above the one shown when Start was pressed', async () => {
    const { store } = setup({ views: { task1: view('SUCCEEDED') } })
    await store.load()
    store.newTask.setGoal('buy a phone')
    await store.newTask.start()
    expect(store.task.taskId.value).toBe('task2')
    expect(store.notice.value?.text).toMatch(/started/i)
    await store.task.follow('task1')
    expect(store.notice.value).toBeNull()
  })

  it('speaks Chinese about its own task only, too', async () => {
    const { onOther, onOwn } = await cancelAnsweredElsewhere('zh-CN')
    expect(onOther).toBeNull()
    expect(onOwn?.text).toBe('已取消。')
  })
})

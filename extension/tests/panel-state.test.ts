import { describe, expect, it } from 'vitest'
import { ServerError } from '../lib/server/errors'
import { setupPanel as setup, view } from './panel-fakes'

const activity = (connection: string, extra: Record<string, unknown> = {}) => ({
  connection,
  message: '',
  failures: 0,
  retryAt: null,
  task: null,
  lastAction: null,
  needsSite: null,
  ...extra,
})
const down = () => new ServerError('UNREACHABLE', 'The Tandem server at http://127.0.0.1:3000 is not reachable.')
const waitingOf = (...entries: { taskId: string; kind: 'confirm' | 'ask'; goal: string }[]) => ({
  waiting: Object.fromEntries(entries.map((e) => [e.taskId, { ...e, key: `${e.kind}:${e.taskId}` }])),
  notified: [],
})

describe('panel connection status: the newest news speaks', () => {
  it('says connected on the next answered poll after a restart, though the worker and a test last found the server down', async () => {
    const { store, client, pushActivity } = setup()
    await store.load()
    // The server went away: the person's test and the worker both found it down.
    client.health.mockRejectedValueOnce(down())
    await store.connection.test()
    pushActivity(activity('down', { failures: 3, retryAt: Date.now() + 120_000 }))
    expect(store.link.value).toBe('down')
    // It is back; the worker waits out its back-off, but the panel's own poll is answered.
    await store.refresh()
    expect(store.link.value).toBe('ok')
    expect(store.statusLine.value).toBe('Connected. No task yet.')
  })

  it('says connected when the worker is answered again, though the last test found the server down and the panel polls nothing', async () => {
    const { store, client, pushActivity } = setup({ followed: null })
    await store.load()
    client.health.mockRejectedValueOnce(down())
    await store.connection.test()
    expect(store.link.value).toBe('down')
    pushActivity(activity('ok'))
    expect(store.link.value).toBe('ok')
  })

  it('still says the server is down when the panel’s own newest call found it so', async () => {
    const { store, client, pushActivity } = setup()
    await store.load()
    pushActivity(activity('ok'))
    client.status.mockRejectedValueOnce(down())
    await store.refresh()
    expect(store.link.value).toBe('down')
  })
})

describe('panel notices belong to the task they were about', () => {
  it('drops "Canceled." once the panel shows another task', async () => {
    const { store, views } = setup({ views: { task1: view('RUNNING'), task2: view('WAITING_CONFIRMATION', {}, 'task2') } })
    await store.load()
    await store.task.cancel()
    expect(store.notice.value?.text).toMatch(/Canceled/)
    await store.task.follow('task2')
    expect(store.notice.value).toBeNull()
    // Back on the task it was about, it is that task's news again.
    views.task1 = view('CANCELED')
    await store.task.follow('task1')
    expect(store.notice.value?.text).toMatch(/Canceled/)
  })

  it('drops "no LLM configured" once a later task is picked up and shown', async () => {
    const { store, client, pushActivity } = setup({ followed: null, views: { task5: view('RUNNING', {}, 'task5') } })
    await store.load()
    client.start.mockRejectedValueOnce(new ServerError('LLM_NOT_CONFIGURED', 'No LLM is configured.', 503))
    store.newTask.setGoal('look at the shop')
    await store.newTask.start()
    expect(store.notice.value?.tone).toBe('error')
    pushActivity(activity('ok', { task: { taskId: 'task5', status: 'RUNNING' } }))
    await expect.poll(() => store.task.taskId.value).toBe('task5')
    expect(store.notice.value).toBeNull()
  })

  it('says "Task started." about the task it started', async () => {
    const { store } = setup({ views: { task1: view('SUCCEEDED') } })
    await store.load()
    store.newTask.setGoal('buy a phone')
    await store.newTask.start()
    expect(store.task.taskId.value).toBe('task2')
    expect(store.notice.value?.text).toBe('Task started.')
  })
})

describe('panel banner for every task waiting for the person', () => {
  it('lists tasks other than the one shown, as the toolbar badge counts them, and opens one on request', async () => {
    const { store, pushAttention, views } = setup({
      views: { task1: view('RUNNING'), task2: view('WAITING_CONFIRMATION', {}, 'task2') },
      attention: waitingOf({ taskId: 'task2', kind: 'confirm', goal: 'goal of task2' }),
    })
    await store.load()
    expect(store.waiting.value).toEqual([{ taskId: 'task2', kind: 'confirm', goal: 'goal of task2' }])
    views.task3 = view('WAITING_USER', {}, 'task3')
    pushAttention(waitingOf({ taskId: 'task2', kind: 'confirm', goal: 'goal of task2' }, { taskId: 'task3', kind: 'ask', goal: 'goal of task3' }))
    expect(store.waiting.value.map((w) => `${w.taskId} ${w.kind}`)).toEqual(['task2 confirm', 'task3 ask'])
    await store.openWaiting('task2')
    expect(store.task.taskId.value).toBe('task2')
    // The shown task comes first, as the panel's own poll sees it.
    expect(store.waiting.value.map((w) => w.taskId)).toEqual(['task2', 'task3'])
    expect(store.t(`waiting.${store.waiting.value[0].kind}`, { goal: 'x' })).toBe('Waiting for your approval: x')
  })

  it('trusts the panel’s own poll about the task it shows, and names a site to allow', async () => {
    const { store, views, pushActivity } = setup({
      views: { task1: view('WAITING_USER') },
      attention: waitingOf({ taskId: 'task1', kind: 'ask', goal: 'goal of task1' }),
      lang: 'zh-CN',
    })
    await store.load()
    pushActivity(activity('ok', { needsSite: { taskId: 'task1', origin: 'http://shop.test' } }))
    expect(store.waiting.value).toEqual([{ taskId: 'task1', kind: 'site', goal: 'goal of task1' }])
    expect(store.t('waiting.site', { goal: '买手机' })).toBe('等你允许一个网站：买手机')
    // Answered here: the worker has not seen it yet, the panel has.
    views.task1 = view('RUNNING')
    await store.refresh()
    expect(store.waiting.value).toEqual([])
  })
})

describe('panel reopened', () => {
  it('keeps the task it followed while that one is not over, though the worker works on another', async () => {
    const { store, stored } = setup({
      followed: 'task2',
      views: { task1: view('WAITING_CONFIRMATION'), task2: view('RUNNING', {}, 'task2') },
      activity: activity('ok', { task: { taskId: 'task1', status: 'WAITING_CONFIRMATION' } }),
    })
    await store.load()
    await new Promise((r) => setTimeout(r, 0))
    expect(store.task.taskId.value).toBe('task2')
    expect(stored.followed).toBe('task2')
  })
})

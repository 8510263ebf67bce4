import { describe, expect, it } from 'vitest'
import type { Activity } from '../lib/executor/state'
import { setupPanel as setup, view } from './panel-fakes'

const activity = (takeover: Activity['takeover'], task: Activity['task'] = { taskId: 'task1', status: 'PAUSED' }): Activity => ({
  connection: 'ok',
  message: '',
  failures: 0,
  retryAt: null,
  task,
  lastAction: null,
  needsSite: null,
  takeover,
})
const clicked = { taskId: 'task1', input: 'pointer', reason: 'takeover: the person clicked in the page', at: 1 }

describe('panel store: the person’s control of the task', () => {
  it('says the person took over the followed task, how, and that Resume hands it back', async () => {
    const { store } = setup({ views: { task1: view('PAUSED') }, activity: activity(clicked) })
    await store.load()
    expect(store.takeover.value).toBe('You took over (you clicked in the page). Tandem waits; press Resume when you are done.')
  })

  it('names each kind of input, and an unknown one in general words', async () => {
    const { store, pushActivity } = setup({ views: { task1: view('PAUSED') } })
    await store.load()
    const words = (input: string) => {
      pushActivity(activity({ ...clicked, input }))
      return store.takeover.value
    }
    expect(words('key')).toMatch(/\(you typed in the page\)/)
    expect(words('wheel')).toMatch(/\(you scrolled the page\)/)
    expect(words('touch')).toMatch(/\(you touched the page\)/)
    expect(words('pen')).toMatch(/\(you acted in the page\)/)
  })

  it('goes when the task resumes or ends, and is never shown for another task or a pause from the panel', async () => {
    const { store, views, pushActivity } = setup({ views: { task1: view('PAUSED') }, activity: activity(clicked) })
    await store.load()
    expect(store.takeover.value).not.toBeNull()
    await store.task.resume()
    views.task1 = view('RUNNING')
    await store.refresh()
    // The worker has not cleared its note yet; the task's own status already says the agent has it back.
    expect(store.takeover.value).toBeNull()
    views.task1 = view('CANCELED')
    await store.refresh()
    expect(store.takeover.value).toBeNull()

    views.task1 = view('PAUSED')
    await store.refresh()
    pushActivity(activity({ ...clicked, taskId: 'task9' }))
    expect(store.takeover.value).toBeNull()
    pushActivity(activity(null))
    expect(store.takeover.value).toBeNull()
  })

  it('speaks Chinese when the browser does', async () => {
    const { store } = setup({ lang: 'zh-CN', views: { task1: view('PAUSED') }, activity: activity({ ...clicked, input: 'key' }) })
    await store.load()
    expect(store.takeover.value).toBe('你已接管（你在页面中输入了内容）。Tandem 正在等待；完成后请按“继续”。')
  })

  it('tells the worker about a pause, a resume or a cancel before nudging it, and not about answers', async () => {
    const { store, client, log, views } = setup({ views: { task1: view('RUNNING') } })
    await store.load()
    await store.task.cancel()
    expect(client.cancel).toHaveBeenCalledWith({ taskId: 'task1', reason: 'Canceled in the side panel' })
    expect(log).toEqual(['changed task1', 'wake'])
    await store.task.pause()
    await store.task.resume()
    expect(log.filter((l) => l.startsWith('changed'))).toHaveLength(3)
    views.task1 = view('WAITING_USER')
    await store.refresh()
    log.length = 0
    store.task.setAnswer('large')
    await store.task.answer()
    expect(log).toEqual(['wake'])
  })

  it('does not tell the worker about a cancel the server refused', async () => {
    const { store, client, log } = setup({ views: { task1: view('RUNNING') } })
    await store.load()
    client.cancel.mockRejectedValueOnce(new Error('refused'))
    await store.task.cancel()
    expect(log).toEqual([])
    expect(store.notice.value?.tone).toBe('error')
  })
})

import { describe, expect, it, vi } from 'vitest'
import { describeAction, describeTyped } from '../lib/panel/describe'
import { panelTranslator } from '../lib/panel/i18n'
import { ServerError } from '../lib/server/errors'
import { action } from './fakes'
import { pendingOrder, setupPanel as setup, task, view } from './panel-fakes'

/** A task asking whether Tandem may act on `origin`, as the server shows it. */
const siteView = (origin: string) => {
  const v = view('WAITING_USER')
  return { ...v, task: { ...v.task, question: `Tandem has no permission to act on ${origin}.`, askedSite: origin } }
}

describe('panel store: the followed task', () => {
  it('shows thinking while the planner works and stops when an action is out or the server says so', async () => {
    const { store, views } = setup()
    await store.load()
    expect(store.task.thinking.value).toBe(true)
    views.task1 = view('RUNNING', { currentAction: action({ type: 'click' }) })
    await store.refresh()
    expect(store.task.thinking.value).toBe(false)
    expect(store.task.running.value?.type).toBe('click')
    views.task1 = view('RUNNING', { currentAction: action({ type: 'click' }), thinking: true })
    await store.refresh()
    expect(store.task.thinking.value).toBe(true)
    views.task1 = view('SUCCEEDED', { task: task('task1', 'SUCCEEDED', { result: { success: true, text: 'Ordered.' } }) })
    await store.refresh()
    expect(store.task.thinking.value).toBe(false)
    expect(store.task.finished.value).toBe(true)
    expect(store.task.view.value?.task.result?.text).toBe('Ordered.')
  })

  it('fetches step screenshots and the confirmation evidence once each, and revokes them when switching tasks', async () => {
    const step = { seq: 1, actionId: 'a1', type: 'click', risk: 'low' as const, outcome: 'done' as const, errors: [], at: '', artifacts: [{ name: 'a1-after.png', label: 'after' as const }] }
    const { store, client, files } = setup({
      views: {
        task1: view('WAITING_CONFIRMATION', { steps: [step], pendingConfirmation: pendingOrder() }),
        task3: view('SUCCEEDED', {}, 'task3'),
      },
    })
    await store.load()
    expect(client.artifact.mock.calls).toEqual([
      ['task1', 'a1-before.png'],
      ['task1', 'a1-after.png'],
    ])
    expect(Object.keys(store.task.images.value).sort()).toEqual(['a1-after.png', 'a1-before.png'])
    await store.refresh()
    expect(client.artifact).toHaveBeenCalledTimes(2)
    await store.task.follow('task3')
    expect(files.revoke.mock.calls.map((c) => c[0]).sort()).toEqual(['blob:1', 'blob:2'])
    expect(store.task.images.value).toEqual({})
  })

  it('approves the pending confirmation by its action id, or rejects it with the reason given', async () => {
    const { store, client, deps } = setup({ views: { task1: view('WAITING_CONFIRMATION', { pendingConfirmation: pendingOrder() }) } })
    await store.load()
    expect(store.task.pending.value?.reasons).toEqual(['places an order'])
    await store.task.decide(true, 'act9')
    expect(client.confirm).toHaveBeenLastCalledWith({ taskId: 'task1', actionId: 'act9', approved: true })
    expect(deps.wake).toHaveBeenCalled()
    store.task.setRejectReason('wrong size')
    await store.task.decide(false, 'act9')
    expect(client.confirm).toHaveBeenLastCalledWith({ taskId: 'task1', actionId: 'act9', approved: false, reason: 'wrong size' })
    store.task.setRejectReason('')
    await store.task.decide(false, 'act9')
    expect(client.confirm).toHaveBeenLastCalledWith({ taskId: 'task1', actionId: 'act9', approved: false, reason: 'Rejected in the side panel' })
  })

  it('answers the question in place, and pauses, resumes and cancels the task', async () => {
    const { store, client, views } = setup({ views: { task1: view('WAITING_USER') } })
    await store.load()
    expect(store.task.question.value).toBe('Which size?')
    store.task.setAnswer('  large ')
    await store.task.answer()
    expect(client.answer).toHaveBeenCalledWith({ taskId: 'task1', answer: 'large' })
    expect(store.task.answerText.value).toBe('')
    views.task1 = view('RUNNING')
    await store.task.pause()
    expect(client.pause).toHaveBeenCalledWith({ taskId: 'task1', reason: expect.any(String) })
    expect(store.notice.value?.text).toMatch(/Paused/)
    await store.task.resume()
    expect(client.resume).toHaveBeenCalledWith({ taskId: 'task1' })
    await store.task.cancel()
    expect(client.cancel).toHaveBeenCalledWith({ taskId: 'task1', reason: expect.any(String) })
  })

  it('exports the audit zip as a download named after the task', async () => {
    const { store, files, client } = setup()
    await store.load()
    await store.task.exportAudit()
    expect(client.exportAudit).toHaveBeenCalledWith('task1')
    expect(files.download).toHaveBeenCalledWith(expect.any(Blob), 'tandem-audit-task1.zip')
    client.exportAudit.mockRejectedValueOnce(new ServerError('UNREACHABLE', 'x'))
    await store.task.exportAudit()
    expect(store.notice.value).toEqual({ text: expect.stringMatching(/not reachable/), tone: 'error' })
  })

  it('lists recent tasks to switch to, and lets go of a task the server no longer knows', async () => {
    const { store, views } = setup({ views: { task1: view('SUCCEEDED'), task3: view('FAILED', {}, 'task3') } })
    await store.load()
    expect(store.task.recent.value.map((t) => t.id)).toEqual(['task1', 'task3'])
    await store.task.follow('task3')
    expect(store.task.view.value?.task.status).toBe('FAILED')
    delete views.task3
    await store.refresh()
    expect(store.task.taskId.value).toBeNull()
  })

  it('follows a task the worker picked up once the one shown is over', async () => {
    let push!: (value: unknown) => void
    const { store, deps } = setup({ views: { task1: view('SUCCEEDED'), task5: view('RUNNING', {}, 'task5') } })
    deps.activity.watch = (cb) => ((push = cb), () => undefined)
    await store.load()
    push({ connection: 'ok', message: '', failures: 0, retryAt: null, task: { taskId: 'task5', status: 'RUNNING' }, lastAction: null, needsSite: null })
    await vi.waitFor(() => expect(store.task.view.value?.task.id).toBe('task5'))
  })

  it('stays on the finished task the person picked when the worker last saw another task end', async () => {
    let push!: (value: unknown) => void
    const { store, deps } = setup({ views: { task1: view('CANCELED'), task3: view('SUCCEEDED', {}, 'task3') } })
    deps.activity.watch = (cb) => ((push = cb), () => undefined)
    await store.load()
    await store.task.follow('task3')
    push({ connection: 'ok', message: '', failures: 0, retryAt: null, task: { taskId: 'task1', status: 'CANCELED' }, lastAction: null, needsSite: null })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(store.task.taskId.value).toBe('task3')
  })

  it('shows no site card for a later question that is not about the site an earlier step was refused', async () => {
    const activity = { connection: 'ok', message: '', failures: 0, retryAt: null, task: null, lastAction: null, needsSite: { taskId: 'task1', origin: 'http://evil.test' } }
    const { store } = setup({ views: { task1: view('WAITING_USER') }, activity })
    await store.load()
    expect(store.task.question.value).toBe('Which size?')
    expect(store.needsSite.value).toBeNull()
  })

  it('offers to authorise the site the worker was refused, and answers the task once granted', async () => {
    const activity = { connection: 'ok', message: '', failures: 0, retryAt: null, task: null, lastAction: null, needsSite: { taskId: 'task1', origin: 'http://shop.test' } }
    const { store, client } = setup({ views: { task1: siteView('http://shop.test') }, activity })
    await store.load()
    expect(store.needsSite.value).toBe('http://shop.test')
    await store.siteDecided('http://shop.test', false)
    expect(client.answer).not.toHaveBeenCalled()
    expect(store.notice.value?.text).toMatch(/still may not act/)
    await store.siteDecided('http://shop.test', true)
    expect(client.answer).toHaveBeenCalledWith({ taskId: 'task1', answer: expect.stringContaining('http://shop.test'), siteAccess: 'allowed' })
  })

  it('says when the refused step would have left the page for another site, and a no answers the task without asking the browser', async () => {
    const needsSite = { taskId: 'task1', origin: 'http://evil.test', from: 'http://shop.test' }
    const activity = { connection: 'ok', message: '', failures: 0, retryAt: null, task: null, lastAction: null, needsSite }
    const { store, client } = setup({ views: { task1: siteView('http://evil.test') }, activity })
    await store.load()
    expect(store.siteLeavingFrom.value).toBe('http://shop.test')
    await store.siteRefused('http://evil.test')
    // Said as a refusal the server acts on, not only as words the planner may read past.
    expect(client.answer).toHaveBeenCalledWith({ taskId: 'task1', answer: expect.stringMatching(/did not authorise http:\/\/evil\.test/), siteAccess: 'refused' })
    expect(store.notice.value?.text).toBe('Not allowed: http://evil.test. The task goes on without it and will not go there again.')
  })

  it('says the task ended when refusing the site ended it (where it starts), in the reader’s language', async () => {
    const needsSite = { taskId: 'task1', origin: 'http://shop.test' }
    const activity = { connection: 'ok', message: '', failures: 0, retryAt: null, task: null, lastAction: null, needsSite }
    const { store, client } = setup({ views: { task1: siteView('http://shop.test') }, activity, lang: 'zh-CN' })
    client.answer.mockResolvedValueOnce({ status: 'CANCELED' } as never)
    await store.load()
    await store.siteRefused('http://shop.test')
    expect(store.notice.value?.text).toBe('未允许 http://shop.test。任务需要这个网站，因此已结束。')
  })

  it('decides nothing when the card the person clicked showed another action than the one now pending', async () => {
    const { store, client } = setup({ views: { task1: view('WAITING_CONFIRMATION', { pendingConfirmation: pendingOrder() }) } })
    await store.load()
    await store.task.decide(true, 'act8')
    expect(client.confirm).not.toHaveBeenCalled()
    await store.task.decide(true, 'act9')
    expect(client.confirm).toHaveBeenCalledWith({ taskId: 'task1', actionId: 'act9', approved: true })
  })

  it('speaks Chinese when the browser does', async () => {
    const { store, client } = setup({ lang: 'zh-CN', views: { task1: view('WAITING_CONFIRMATION', { pendingConfirmation: pendingOrder() }) } })
    await store.load()
    await store.task.decide(true, 'act9')
    expect(store.notice.value?.text).toBe('已批准。')
    store.task.setRejectReason('')
    await store.task.decide(false, 'act9')
    expect(client.confirm).toHaveBeenLastCalledWith(expect.objectContaining({ reason: '在侧边栏中拒绝' }))
    await store.newTask.start()
    expect(store.notice.value?.text).toBe('请写下任务要达成的目标。')
  })
})

describe('actions in plain words', () => {
  it('quotes words from the page, not Tandem’s stand-ins, in English and Chinese', () => {
    const en = panelTranslator('en')
    const zh = panelTranslator('zh-CN')
    expect(describeAction(action({ type: 'click', target: { by: 'index', value: 7 } }), en)).toBe('Click element [7]')
    expect(describeAction(action({ type: 'click', target: { by: 'index', value: 7 } }), en, 'Place order')).toBe('Click “Place order”')
    expect(describeAction(action({ type: 'type', target: { by: 'selector', value: '#q' }, params: { text: 'iPhone 15', submit: true } }), en)).toBe(
      'Type “iPhone 15” into an element and submit it',
    )
    expect(describeAction(action({ type: 'navigate', target: undefined, params: { url: 'https://shop.test/' } }), en)).toBe('Open https://shop.test/')
    expect(describeAction(action({ type: 'click', target: { by: 'text', value: '提交订单' } }), zh)).toBe('点击“提交订单”')
    expect(describeAction(action({ type: 'back', target: undefined }), zh)).toBe('后退')
    expect(describeAction(action({ type: 'double_click', target: { by: 'index', value: 3 } }), en, 'Buy milk')).toBe('Double-click “Buy milk”')
    expect(describeAction(action({ type: 'double_click', target: { by: 'index', value: 3 } }), zh, '买牛奶')).toBe('双击“买牛奶”')
    expect(describeAction(action({ type: 'right_click', target: { by: 'text', value: 'report.pdf' } }), en)).toBe('Right-click “report.pdf”')
    expect(describeAction(action({ type: 'right_click', target: { by: 'index', value: 2 } }), zh)).toBe('右键点击元素 [2]')
  })

  it('never shows a value typed into a credential field', () => {
    const en = panelTranslator('en')
    const typed = action({ type: 'type', target: { by: 'selector', value: '#pw' }, params: { text: 'hunter2-secret', sensitive: true } })
    expect(describeAction(typed, en)).toBe('Type “your password” into an element')
    expect(describeAction(typed, panelTranslator('zh-CN'), '密码')).toBe('在“密码”中输入“你的密码”')
    const secret = action({ type: 'type', target: { by: 'text', value: 'API key' }, params: { text: '{{secret:SHOP_KEY}}' } })
    expect(describeAction(secret, en)).toBe('Type “your saved secret SHOP_KEY” into “API key”')
  })

  it('shows on a finished step what was typed: the text, or a password or secret only by its name', () => {
    const en = panelTranslator('en')
    const zh = panelTranslator('zh-CN')
    const step = { type: 'type' }
    expect(describeTyped({ ...step, text: 'Ada Lovelace' }, en)).toBe('typed “Ada Lovelace”')
    expect(describeTyped({ ...step, text: 'Ada Lovelace' }, zh)).toBe('输入了“Ada Lovelace”')
    expect(describeTyped({ ...step, sensitive: true }, en)).toBe('typed your password (not shown)')
    expect(describeTyped({ ...step, text: '{{secret:SHOP_PASSWORD}}' }, zh)).toBe('输入了你保存的机密“SHOP_PASSWORD”（不显示）')
    expect(describeTyped({ ...step, text: 'user {{secret:USER}} here' }, en)).toBe('typed “user ‹USER› here”')
    expect(describeTyped({ type: 'click', text: 'x' }, en)).toBeUndefined()
  })
})

describe('panel store: answers that cross', () => {
  it('never shows an older status over a newer one: a decided confirmation does not come back', async () => {
    const { store, client, views } = setup({ views: { task1: view('WAITING_CONFIRMATION', { pendingConfirmation: pendingOrder() }) } })
    await store.load()
    let answerPoll!: (v: ReturnType<typeof view>) => void
    client.status.mockImplementationOnce(() => new Promise((resolve) => (answerPoll = resolve)))
    // The 1 s poll asks, and its answer (still waiting for approval) is slow to come back.
    const poll = store.refresh()
    views.task1 = view('RUNNING')
    await store.task.decide(true, 'act9')
    expect(store.task.pending.value).toBeNull()
    answerPoll(view('WAITING_CONFIRMATION', { pendingConfirmation: pendingOrder() }))
    await poll
    expect(store.task.pending.value).toBeNull()
    expect(store.task.status.value).toBe('RUNNING')
  })
})

import { describe, expect, it, vi } from 'vitest'
import type { PendingConfirmation, StatusView, TaskStatus, TaskView } from '#protocol'
import { explain } from '../lib/panel/explain'
import { panelTranslator } from '../lib/panel/i18n'
import { normaliseStartUrl } from '../lib/panel/new-task'
import { EMPTY_DRAFT, type Draft } from '../lib/panel/persisted'
import { createPanelStore, type PanelDeps } from '../lib/panel/store'
import { ServerError } from '../lib/server/errors'
import type { Settings } from '../lib/settings'
import { action } from './fakes'

function task(id: string, status: TaskStatus, extra: Partial<TaskView> = {}): TaskView {
  return { id, goal: `goal of ${id}`, status, mode: 'llm', createdAt: '2025-01-01T00:00:00Z', updatedAt: '', stepCount: 0, ...extra }
}

function view(status: TaskStatus, extra: Partial<StatusView> = {}, id = 'task1'): StatusView {
  return {
    task: task(id, status, status === 'WAITING_USER' ? { question: 'Which size?' } : {}),
    currentAction: null,
    pendingConfirmation: null,
    steps: [],
    usage: { llmCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, latencyMs: 0 },
    ...extra,
  }
}

const pendingOrder = (): PendingConfirmation => ({
  actionId: 'act9',
  action: action({ actionId: 'act9', type: 'click', risk: 'high', requiresConfirmation: true, target: { by: 'index', value: 7 } }),
  risk: 'high',
  reasons: ['places an order'],
  goal: 'Place the order',
  evidence: { url: 'http://shop.test/checkout', title: 'Checkout', origin: 'http://shop.test', targetText: 'Place order', screenshot: { name: 'a1-before.png', label: 'before' } },
})

/** A panel over an in-memory server, storage and browser; everything it did is recorded. */
function setup(opts: { views?: Record<string, StatusView>; followed?: string | null; settings?: Settings; activity?: unknown; lang?: 'en' | 'zh-CN'; draft?: Draft } = {}) {
  const views: Record<string, StatusView> = opts.views ?? { task1: view('RUNNING') }
  const stored = { followed: opts.followed === undefined ? 'task1' : opts.followed, draft: opts.draft ?? EMPTY_DRAFT, settings: opts.settings ?? { serverUrl: 'http://127.0.0.1:3000', token: 't' } }
  const log: string[] = []
  const client = {
    health: vi.fn(async () => undefined),
    info: vi.fn(async () => ({ name: 'tandem', version: '0.1.0', llm: { configured: false } })),
    start: vi.fn(async (_body: unknown) => {
      log.push('start')
      views.task2 = view('RUNNING', {}, 'task2')
      return { taskId: 'task2', status: 'RUNNING' as const }
    }),
    confirm: vi.fn(async (_body: unknown) => ({ status: 'RUNNING' as const })),
    answer: vi.fn(async (_body: unknown) => ({ status: 'RUNNING' as const })),
    pause: vi.fn(async (_body: unknown) => ({ status: 'PAUSED' as const })),
    resume: vi.fn(async (_body: unknown) => ({ status: 'RUNNING' as const })),
    cancel: vi.fn(async (_body: unknown) => ({ status: 'CANCELED' as const })),
    status: vi.fn(async (id: string) => {
      if (!views[id]) throw new ServerError('NOT_FOUND', `No task ${id}.`, 404)
      return views[id]
    }),
    tasks: vi.fn(async () => Object.values(views).map((v) => v.task)),
    searchSkills: vi.fn(async (q: string) => [
      { slug: 'checkout-with-approval', name: `Checkout (${q})`, description: 'd', sites: [], tags: [], risk: 'high' as const, score: 1 },
    ]),
    artifact: vi.fn(async (taskId: string, name: string) => new Blob([`${taskId}/${name}`])),
    exportAudit: vi.fn(async () => new Blob(['PK zip'])),
  }
  let made = 0
  const files = {
    objectUrl: vi.fn((_blob: Blob) => `blob:${++made}`),
    revoke: vi.fn((_url: string) => undefined),
    download: vi.fn((_blob: Blob, _name: string) => undefined),
  }
  const tabs = {
    current: vi.fn(async () => ({ id: 42, url: 'http://shop.test/', title: 'Shop' }) as { id: number; url: string; title: string } | null),
    adopt: vi.fn(async (_taskId: string, _tabId: number) => {
      log.push('adopt')
      return true
    }),
  }
  const deps: PanelDeps = {
    client,
    settings: { get: async () => stored.settings, set: vi.fn(async (value: Settings) => void (stored.settings = value)) },
    activity: { get: async () => opts.activity ?? null, watch: () => () => undefined },
    wake: vi.fn(async () => void log.push('wake')),
    followed: { get: async () => stored.followed, set: async (id) => void (stored.followed = id) },
    draft: { get: async () => stored.draft, set: async (d) => void (stored.draft = d) },
    tabs,
    hasPermission: vi.fn(async (_pattern: string) => false),
    files,
    lang: opts.lang ?? 'en',
  }
  return { store: createPanelStore(deps), client, deps, views, stored, files, tabs, log }
}

describe('panel store: connection', () => {
  it('explains failures in words that say what to do, in English and Chinese', () => {
    const en = panelTranslator('en')
    const zh = panelTranslator('zh-CN')
    expect(explain(new ServerError('UNREACHABLE', 'x'), 'http://127.0.0.1:3000', en)).toMatch(/127\.0\.0\.1:3000 is not reachable.*npm start/)
    expect(explain(new ServerError('UNAUTHORIZED', 'x', 401), 'http://h', en)).toMatch(/rejected the token/)
    expect(explain(new ServerError('LLM_NOT_CONFIGURED', 'x', 400), '', en)).toMatch(/no LLM configured.*TANDEM_LLM_BASE_URL/)
    expect(explain(new ServerError('UNREACHABLE', 'x'), 'http://127.0.0.1:3000', zh)).toMatch(/无法连接.*npm start/)
    expect(explain(new ServerError('UNAUTHORIZED', 'x', 401), 'http://h', zh)).toMatch(/拒绝了这个令牌/)
  })

  it('opens on the setup form on first run and refuses a server URL that is not http(s)', async () => {
    const { store, deps } = setup({ settings: { serverUrl: 'http://127.0.0.1:3000', token: '' } })
    await store.load()
    expect(store.connection.needsSetup.value).toBe(true)
    expect(store.connection.serverUrl.value).toBe('http://127.0.0.1:3000')
    store.connection.serverUrl.value = 'file:///etc/passwd'
    await store.connection.save()
    expect(deps.settings.set).not.toHaveBeenCalled()
    expect(store.notice.value).toEqual({ text: expect.stringMatching(/http\(s\)/), tone: 'error' })
    store.connection.serverUrl.value = 'http://127.0.0.1:4000/'
    store.connection.token.value = ' abc '
    await store.connection.save()
    expect(deps.settings.set).toHaveBeenCalledWith({ serverUrl: 'http://127.0.0.1:4000', token: 'abc' })
    expect(store.connection.needsSetup.value).toBe(false)
    expect(deps.wake).toHaveBeenCalled()
  })

  it('says what the connection test found: connected, server down, wrong token', async () => {
    const { store, client } = setup()
    await store.load()
    await store.connection.test()
    expect(store.notice.value?.text).toMatch(/Connected to tandem 0.1.0.*No LLM/)
    expect(store.connection.check.value).toBe('ok')
    expect(store.link.value).toBe('ok')

    client.health.mockRejectedValueOnce(new ServerError('UNREACHABLE', 'x'))
    await store.connection.test()
    expect(store.notice.value).toEqual({ text: expect.stringMatching(/not reachable/), tone: 'error' })
    expect(store.link.value).toBe('down')

    client.info.mockRejectedValueOnce(new ServerError('UNAUTHORIZED', 'x', 401))
    await store.connection.test()
    expect(store.notice.value?.text).toMatch(/rejected the token/)
    expect(store.link.value).toBe('unauthorized')
  })

  it('names a missing permission for a server that is not on loopback instead of calling it unreachable', async () => {
    const { store, client, deps } = setup()
    await store.load()
    store.connection.serverUrl.value = 'https://tandem.example.com:8443'
    await store.connection.test(Promise.resolve(false))
    expect(deps.hasPermission).toHaveBeenCalledWith('https://tandem.example.com/*')
    expect(store.notice.value?.text).toMatch(/no permission to reach https:\/\/tandem\.example\.com:8443/)
    expect(store.connection.check.value).toBe('no_permission')
    expect(store.connection.open.value).toBe(true)
    expect(client.health).not.toHaveBeenCalled()

    vi.mocked(deps.hasPermission).mockResolvedValue(true)
    await store.connection.test(Promise.resolve(true))
    expect(client.health).toHaveBeenCalled()
    expect(store.connection.check.value).toBe('ok')
  })
})

describe('panel store: new task', () => {
  it('starts in the current tab: the worker adopts that tab before it is woken, and the panel follows the task', async () => {
    const { store, client, tabs, log, stored } = setup({ followed: null })
    await store.load()
    expect(store.newTask.currentTab.value?.title).toBe('Shop')
    store.newTask.setGoal('  buy a cable  ')
    expect(stored.draft.goal).toBe('  buy a cable  ')
    await store.newTask.start()
    expect(client.start).toHaveBeenCalledWith({ goal: 'buy a cable' })
    expect(tabs.adopt).toHaveBeenCalledWith('task2', 42)
    expect(log.indexOf('adopt')).toBeGreaterThan(log.indexOf('start'))
    expect(log.indexOf('wake')).toBeGreaterThan(log.indexOf('adopt'))
    expect(store.task.taskId.value).toBe('task2')
    expect(stored.followed).toBe('task2')
    expect(store.newTask.draft.value.goal).toBe('')
    expect(store.task.recent.value.map((t) => t.id)).toContain('task2')
  })

  it('refuses to start without a goal, or in a current tab that shows no web page', async () => {
    const { store, client, tabs } = setup({ followed: null })
    await store.load()
    await store.newTask.start()
    expect(store.notice.value?.text).toMatch(/Say what the task should achieve/)
    tabs.current.mockResolvedValue({ id: 1, url: 'chrome-extension://abc/sidepanel.html', title: 'Tandem' })
    store.newTask.setGoal('buy')
    await store.newTask.start()
    expect(store.notice.value?.text).toMatch(/current tab shows no web page/)
    expect(client.start).not.toHaveBeenCalled()
  })

  it('starts in a new tab at the address given, completing a bare host name', async () => {
    const { store, client, tabs } = setup({ followed: null })
    await store.load()
    store.newTask.setGoal('look around')
    store.newTask.setWhere('new')
    store.newTask.setStartUrl('javascript:alert(1)')
    await store.newTask.start()
    expect(client.start).not.toHaveBeenCalled()
    expect(store.notice.value?.text).toMatch(/address to open/)
    store.newTask.setStartUrl('shop.test/items')
    await store.newTask.start()
    expect(client.start).toHaveBeenCalledWith({ goal: 'look around', startUrl: 'https://shop.test/items' })
    expect(tabs.adopt).not.toHaveBeenCalled()
    expect(normaliseStartUrl('http://127.0.0.1:8080/shop/')).toBe('http://127.0.0.1:8080/shop/')
  })

  it('finds skills by search and starts the task with the picked one', async () => {
    const { store, client } = setup({ followed: null })
    await store.load()
    let release!: () => void
    client.searchSkills.mockImplementationOnce(
      (q: string) => new Promise((r) => (release = () => r([{ slug: 'old', name: `Old (${q})`, description: '', sites: [], tags: [], risk: 'high', score: 1 }]))),
    )
    const older = store.newTask.searchSkills('che')
    await store.newTask.searchSkills('checkout')
    release()
    await older
    // The slower answer to the older query does not replace the newer one.
    expect(store.newTask.skillResults.value?.map((s) => s.name)).toEqual(['Checkout (checkout)'])
    store.newTask.pickSkill(store.newTask.skillResults.value![0])
    expect(store.newTask.skillResults.value).toBeNull()
    store.newTask.setGoal('check out')
    await store.newTask.start()
    expect(client.start).toHaveBeenCalledWith({ goal: 'check out', skill: 'checkout-with-approval' })
    expect(store.newTask.draft.value.skill).toBeNull()
  })

  it('keeps the draft and the followed task across closing and reopening the panel', async () => {
    const first = setup({ followed: null })
    await first.store.load()
    first.store.newTask.setGoal('half written')
    first.store.newTask.setWhere('new')
    first.store.newTask.setStartUrl('https://shop.test/')
    await first.store.task.follow('task1')
    const again = setup({ followed: first.stored.followed, draft: first.stored.draft })
    await again.store.load()
    expect(again.store.newTask.draft.value).toMatchObject({ goal: 'half written', where: 'new', startUrl: 'https://shop.test/' })
    expect(again.store.task.taskId.value).toBe('task1')
    expect(again.store.task.view.value?.task.id).toBe('task1')
  })
})

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
    await store.task.decide(true)
    expect(client.confirm).toHaveBeenLastCalledWith({ taskId: 'task1', actionId: 'act9', approved: true })
    expect(deps.wake).toHaveBeenCalled()
    store.task.setRejectReason('wrong size')
    await store.task.decide(false)
    expect(client.confirm).toHaveBeenLastCalledWith({ taskId: 'task1', actionId: 'act9', approved: false, reason: 'wrong size' })
    store.task.setRejectReason('')
    await store.task.decide(false)
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

  it('offers to authorise the site the worker was refused, and answers the task once granted', async () => {
    const activity = { connection: 'ok', message: '', failures: 0, retryAt: null, task: null, lastAction: null, needsSite: { taskId: 'task1', origin: 'http://shop.test' } }
    const { store, client } = setup({ views: { task1: view('WAITING_USER') }, activity })
    await store.load()
    expect(store.needsSite.value).toBe('http://shop.test')
    await store.siteDecided('http://shop.test', false)
    expect(client.answer).not.toHaveBeenCalled()
    expect(store.notice.value?.text).toMatch(/still may not act/)
    await store.siteDecided('http://shop.test', true)
    expect(client.answer).toHaveBeenCalledWith({ taskId: 'task1', answer: expect.stringContaining('http://shop.test') })
  })

  it('speaks Chinese when the browser does', async () => {
    const { store, client } = setup({ lang: 'zh-CN', views: { task1: view('WAITING_CONFIRMATION', { pendingConfirmation: pendingOrder() }) } })
    await store.load()
    await store.task.decide(true)
    expect(store.notice.value?.text).toBe('已批准。')
    store.task.setRejectReason('')
    await store.task.decide(false)
    expect(client.confirm).toHaveBeenLastCalledWith(expect.objectContaining({ reason: '在侧边栏中拒绝' }))
    await store.newTask.start()
    expect(store.notice.value?.text).toBe('请写下任务要达成的目标。')
  })
})

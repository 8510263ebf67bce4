import { describe, expect, it, vi } from 'vitest'
import { needsGrant } from '../lib/panel/connection'
import { explain } from '../lib/panel/explain'
import { panelTranslator } from '../lib/panel/i18n'
import { normaliseStartUrl } from '../lib/panel/new-task'
import { ServerError } from '../lib/server/errors'
import { setupPanel as setup, view } from './panel-fakes'

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

  it('says any other server error in Chinese to a Chinese reader, and keeps the server’s exact words in English', () => {
    const conflict = new ServerError('CONFLICT', 'This task is not waiting for an answer (it is RUNNING).', 409)
    expect(explain(conflict, '', panelTranslator('zh-CN'))).toBe('任务在此期间已经有了变化：请刷新后再试。')
    expect(explain(conflict, '', panelTranslator('en'))).toBe('This task is not waiting for an answer (it is RUNNING).')
  })

  it('asks to try again, in both languages, when a task is busy on another server', () => {
    const busy = new ServerError('UNAVAILABLE', 'Task t1 is busy on another server; try again in a moment.', 503)
    expect(explain(busy, '', panelTranslator('en'))).toMatch(/busy.*Try again in a moment/)
    expect(explain(busy, '', panelTranslator('zh-CN'))).toMatch(/正忙.*请稍后再试/)
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

  it('asks for a grant for exactly the server addresses the manifest does not hold', () => {
    expect(needsGrant('http://127.0.0.1:3000')).toBe(false)
    expect(needsGrant('http://localhost:4000')).toBe(false)
    expect(needsGrant('http://[::1]:3000')).toBe(true)
    expect(needsGrant('http://127.0.0.2:3000')).toBe(true)
    expect(needsGrant('https://tandem.example.com')).toBe(true)
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

describe('panel store: a server that does not answer', () => {
  const notAnswering = () => new ServerError('NOT_ANSWERING', 'The Tandem server at http://127.0.0.1:3000 did not answer within 6 s.')

  it('explains it in words that say what to do, in English and Chinese', () => {
    expect(explain(notAnswering(), 'http://127.0.0.1:3000', panelTranslator('en'))).toMatch(/127\.0\.0\.1:3000 is not answering.*keeps trying/)
    expect(explain(notAnswering(), 'http://127.0.0.1:3000', panelTranslator('zh-CN'))).toMatch(/127\.0\.0\.1:3000 的 Tandem 服务器没有响应：.*继续重试；/)
  })

  it('says so as soon as one of its own status polls runs out, while the task still says running, and clears when the server answers', async () => {
    const { store, client, log } = setup({ activity: { connection: 'ok', message: '', failures: 0, retryAt: null, task: null, lastAction: null, needsSite: null } })
    await store.load()
    expect(store.link.value).toBe('ok')
    client.status.mockRejectedValueOnce(notAnswering())
    await store.refresh()
    expect(store.task.status.value).toBe('RUNNING')
    expect(store.link.value).toBe('not_answering')
    expect(store.t(`conn.badge.${store.link.value}`)).toBe('Server not answering')
    expect(store.statusLine.value).toMatch(/http:\/\/127\.0\.0\.1:3000 is not answering/)
    expect(log).not.toContain('wake')

    await store.refresh()
    expect(store.link.value).toBe('ok')
    // The worker may be backing off after the same silence: the server is back, so it need not wait.
    expect(log).toContain('wake')
  })

  it('says it in Chinese too, and says "not reachable" for a refused connection', async () => {
    const { store, client } = setup({ lang: 'zh-CN' })
    await store.load()
    client.status.mockRejectedValueOnce(notAnswering())
    await store.refresh()
    expect(store.t(`conn.badge.${store.link.value}`)).toBe('服务器没有响应')
    expect(store.statusLine.value).toMatch(/没有响应：.*。$/)
    client.status.mockRejectedValueOnce(new ServerError('UNREACHABLE', 'x'))
    await store.refresh()
    expect(store.link.value).toBe('down')
    expect(store.statusLine.value).toMatch(/无法连接/)
  })

  it('shows what the worker found when its own calls ran out', async () => {
    const { store, pushActivity } = setup({ followed: null })
    await store.load()
    // The worker's news comes after the panel's own calls: it is the newest.
    pushActivity({ connection: 'not_answering', message: 'x', failures: 1, retryAt: null, task: null, lastAction: null, needsSite: null })
    expect(store.link.value).toBe('not_answering')
    expect(store.statusLine.value).toMatch(/is not answering/)
  })

  it('keeps one status poll out at a time: a server that hangs is not sent one a second until the deadline', async () => {
    const { store, client, views } = setup()
    await store.load()
    let answer!: () => void
    client.status.mockImplementationOnce(() => new Promise((r) => (answer = () => r(views.task1))))
    const calls = client.status.mock.calls.length
    const first = store.refresh()
    void store.refresh()
    void store.refresh()
    await Promise.resolve()
    expect(client.status.mock.calls.length).toBe(calls + 1)
    answer()
    await first
    await store.refresh()
    expect(client.status.mock.calls.length).toBe(calls + 2)
  })

  it('forgets what it found about a server once the settings name another one', async () => {
    const { store, client } = setup()
    await store.load()
    client.status.mockRejectedValueOnce(notAnswering())
    await store.refresh()
    expect(store.link.value).toBe('not_answering')
    store.connection.serverUrl.value = 'http://127.0.0.1:4000'
    await store.connection.save()
    expect(store.link.value).toBe('unknown')
  })
})

describe('panel store: new task', () => {
  it('starts in the current tab: the worker is promised that tab before the start and adopts it before it is woken, and the panel follows the task', async () => {
    const { store, client, tabs, log, stored } = setup({ followed: null })
    await store.load()
    expect(store.newTask.currentTab.value?.title).toBe('Shop')
    store.newTask.setGoal('  buy a cable  ')
    expect(stored.draft.goal).toBe('  buy a cable  ')
    await store.newTask.start()
    expect(client.start).toHaveBeenCalledWith({ goal: 'buy a cable' })
    expect(tabs.expect).toHaveBeenCalledWith(42)
    expect(tabs.adopt).toHaveBeenCalledWith('task2', 42)
    // Promised before the server can hand the task's first step out, named once it answered.
    expect(log.indexOf('expect')).toBeLessThan(log.indexOf('start'))
    expect(log.indexOf('adopt')).toBeGreaterThan(log.indexOf('start'))
    expect(log.indexOf('wake')).toBeGreaterThan(log.indexOf('adopt'))
    expect(store.task.taskId.value).toBe('task2')
    expect(stored.followed).toBe('task2')
    expect(store.newTask.draft.value.goal).toBe('')
    expect(store.task.recent.value.map((t) => t.id)).toContain('task2')
  })

  it('starts one task when Run is asked for again while the first start is on its way', async () => {
    const { store, client } = setup({ followed: null })
    await store.load()
    store.newTask.setGoal('buy a cable')
    // Ctrl+Enter twice: the disabled Run button does not stop the shortcut.
    await Promise.all([store.newTask.start(), store.newTask.start()])
    expect(client.start).toHaveBeenCalledTimes(1)
    expect(store.busy.value).toBe(false)
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
    expect(store.newTask.urlError.value).toMatch(/only web pages .* such as example\.com/)
    // Words that only look like a host once https:// is put before them are not an address either.
    for (const words of ['不是网址', 'not a url', 'intranet']) {
      store.newTask.setStartUrl(words)
      expect(store.newTask.urlError.value).toBeNull()
      await store.newTask.start()
      expect(store.newTask.urlError.value).toMatch(/such as example\.com/)
    }
    expect(client.start).not.toHaveBeenCalled()
    store.newTask.setStartUrl('localhost:3000/x')
    await store.newTask.start()
    expect(client.start).toHaveBeenLastCalledWith({ goal: 'look around', startUrl: 'http://localhost:3000/x' })
    store.newTask.setGoal('look around')
    store.newTask.setStartUrl('shop.test/items')
    await store.newTask.start()
    expect(client.start).toHaveBeenCalledWith({ goal: 'look around', startUrl: 'https://shop.test/items' })
    expect(tabs.adopt).not.toHaveBeenCalled()
    expect(normaliseStartUrl('http://127.0.0.1:8080/shop/')).toBe('http://127.0.0.1:8080/shop/')
  })

  it('says under the field, in Chinese for a Chinese reader, why an address is not one', async () => {
    const { store, client } = setup({ followed: null, lang: 'zh-CN' })
    await store.load()
    store.newTask.setGoal('看看')
    store.newTask.setWhere('new')
    store.newTask.setStartUrl('不是网址')
    await store.newTask.start()
    expect(store.newTask.urlError.value).toBe('这不是网址。请输入例如 example.com、localhost:3000 或 https://example.com/page 的网址。')
    expect(client.start).not.toHaveBeenCalled()
    store.newTask.setStartUrl('例子.测试')
    await store.newTask.start()
    expect(client.start).toHaveBeenCalledWith({ goal: '看看', startUrl: 'https://xn--fsqu00a.xn--0zwm56d/' })
  })

  it('finds skills by search and starts the task with the picked one', async () => {
    const { store, client } = setup({ followed: null })
    await store.load()
    let release!: () => void
    client.searchSkills.mockImplementationOnce(
      (q: string) => new Promise((r) => (release = () => r([{ slug: 'old', name: `Old (${q})`, description: '', sites: [], tags: [], risk: 'high', scripted: false, score: 1 }]))),
    )
    const older = store.newTask.searchSkills('che')
    await store.newTask.searchSkills('checkout')
    release()
    await older
    // The slower answer to the older query does not replace the newer one.
    expect(store.newTask.skillResults.value?.map((s) => s.name)).toEqual(['Checkout (checkout)'])
    store.newTask.pickSkill(store.newTask.skillResults.value![0])
    expect(store.newTask.skillResults.value).toBeNull()
    // The pick remembers that the skill replays a script, so the panel can say no LLM is needed.
    expect(store.newTask.draft.value.skill).toEqual({ slug: 'checkout-with-approval', name: 'Checkout (checkout)', scripted: true })
    store.newTask.setGoal('check out')
    await store.newTask.start()
    expect(client.start).toHaveBeenCalledWith({ goal: 'check out', skill: 'checkout-with-approval' })
    expect(store.newTask.draft.value.skill).toBeNull()
  })

  it('folds the form while the followed task runs, and opens it for a half-written goal, a finished task or the person', async () => {
    const { store, views } = setup({ views: { task1: view('RUNNING') } })
    await store.load()
    expect(store.newTask.open.value).toBe(false)
    // The browser reports the fold the panel made itself: that is no choice of the person's.
    store.newTask.setOpen(false)
    store.newTask.setGoal('next: buy a cable')
    expect(store.newTask.open.value).toBe(true)
    store.newTask.setGoal('')
    expect(store.newTask.open.value).toBe(false)
    store.newTask.setOpen(true)
    expect(store.newTask.open.value).toBe(true)

    // Starting from the opened form follows the new task, which runs: the form folds again.
    store.newTask.setGoal('buy a cable')
    await store.newTask.start()
    expect(store.task.taskId.value).toBe('task2')
    expect(store.newTask.open.value).toBe(false)

    views.task2 = view('SUCCEEDED', {}, 'task2')
    await store.refresh()
    expect(store.newTask.open.value).toBe(true)
    store.newTask.setOpen(false)
    expect(store.newTask.open.value).toBe(false)
  })

  it('opens the form when no task is followed or the followed one is over', async () => {
    const none = setup({ followed: null })
    await none.store.load()
    expect(none.store.newTask.open.value).toBe(true)
    const over = setup({ views: { task1: view('CANCELED') } })
    await over.store.load()
    expect(over.store.newTask.open.value).toBe(true)
    const waiting = setup({ views: { task1: view('WAITING_CONFIRMATION') } })
    await waiting.store.load()
    expect(waiting.store.newTask.open.value).toBe(false)
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


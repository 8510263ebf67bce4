import { describe, expect, it } from 'vitest'
import type { TaskView } from '#protocol'
import { ApiError, createApi } from '../../ui/console/api'
import { CONSOLE_DICTIONARIES, consoleTranslator } from '../../ui/console/i18n'
import { hrefOf, parseRoute } from '../../ui/console/route'
import { createConsoleStore, explain } from '../../ui/console/store'
import { TOKEN_KEY } from '../../ui/console/token'
import { translationGaps } from '../../ui/i18n'
import { REPLAY_DICTIONARIES, replayTranslator } from '../../ui/replay/i18n'
import { panelTranslator } from '../../extension/lib/panel/i18n'

const task = (id: string, goal: string, status: TaskView['status'], createdAt: string): TaskView => ({
  id, goal, status, mode: 'script', createdAt, updatedAt: createdAt, stepCount: 1,
})
const TASKS = [
  task('t1', 'buy an iPhone 15', 'SUCCEEDED', '2025-11-02T10:00:00.000Z'),
  task('t3', 'send the weekly report', 'WAITING_CONFIRMATION', '2025-11-02T12:00:00.000Z'),
  task('t2', 'book a table', 'FAILED', '2025-11-02T11:00:00.000Z'),
]

const FOUND = [
  { slug: 'buy-a-phone', name: 'Buy a phone', description: 'd', sites: ['shop.test'], tags: [], risk: 'high', scripted: true, score: 2 },
  { slug: 'compare-phones', name: 'Compare phones', description: 'd', sites: [], tags: [], risk: 'low', scripted: false, score: 1 },
]

const LIBRARY = [
  { slug: 'buy-a-phone', name: 'Buy a phone', description: 'd', sites: ['shop.test'], tags: [], risk: 'high', 'risky-steps': [], 'allowed-actions': [], excerpt: '', scripted: true },
  { slug: 'my-form', name: 'My form', description: 'd', sites: [], tags: [], risk: 'low', 'risky-steps': [], 'allowed-actions': [], excerpt: '', scripted: true, own: true },
  { slug: 'tidy-inbox', name: 'Tidy the inbox', description: 'd', sites: [], tags: [], risk: 'low', 'risky-steps': [], 'allowed-actions': [], excerpt: '', scripted: false },
]

/** A server as the console sees it through fetch: a token, tasks, one artifact; records what was asked. */
function fakeServer(token = 'right', hold?: Promise<void>) {
  const calls: { url: string; auth: string | null }[] = []
  const inFlight = { now: 0, most: 0 }
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input)
    const auth = new Headers(init?.headers).get('authorization')
    calls.push({ url, auth })
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
    if (auth !== `Bearer ${token}`) return json(401, { ok: false, error: { code: 'UNAUTHORIZED', message: 'Missing or wrong token.' } })
    if (url.startsWith('/api/agent/tasks')) return json(200, { ok: true, data: TASKS })
    if (url.startsWith('/api/audit/t1/artifacts/')) {
      inFlight.most = Math.max(inFlight.most, ++inFlight.now)
      await hold
      inFlight.now--
      return new Response(new Uint8Array([1, 2, 3]), { status: 200 })
    }
    if (url.startsWith('/api/skills/search?q=phone')) return json(200, { ok: true, data: FOUND })
    if (url === '/api/clients') return json(404, { ok: false, error: { code: 'NOT_FOUND', message: 'no route' } })
    if (url === '/api/skills' && init?.method === 'POST' && String(init.body).includes('login-safely')) {
      return json(409, { ok: false, error: { code: 'CONFLICT', message: 'comes with Tandem', details: { slug: 'login-safely', shipped: true } } })
    }
    if (url === '/api/skills' && init?.method === 'POST') return json(409, { ok: false, error: { code: 'CONFLICT', message: 'exists' } })
    if (url === '/api/skills') return json(200, { ok: true, data: LIBRARY })
    if (url === '/api/skills/buy-a-phone') return json(200, { ok: true, data: { ...FOUND[0], body: '## Steps\n1. Open the shop.', parameters: [{ name: 'fullname', label: 'Full name' }], 'start-url': 'https://shop.test/' } })
    if (url === '/api/skills/gone') return json(404, { ok: false, error: { code: 'NOT_FOUND', message: 'No skill gone.' } })
    return json(500, { ok: false, error: { code: 'INTERNAL', message: 'boom' } })
  }) as typeof globalThis.fetch
  return { fetch, calls, inFlight }
}

function setup(hash = '#/', stored: string | null = null, server = fakeServer()) {
  const items = new Map<string, string>(stored ? [[TOKEN_KEY, stored]] : [])
  const location = { hash, pathname: '/console/', search: '' }
  const replaced: string[] = []
  const made: string[] = []
  const t = consoleTranslator('en')
  let store: ReturnType<typeof createConsoleStore>
  const api = createApi({ token: () => store.token.value, fetch: server.fetch })
  store = createConsoleStore({
    api,
    t,
    place: {
      storage: { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v), removeItem: (k) => void items.delete(k) },
      location,
      history: { replaceState: (_s: unknown, _t: string, url?: string | URL | null) => void replaced.push(String(url)) },
    },
    objectUrl: { create: () => (made.push(`blob:${made.length}`), `blob:${made.length - 1}`), revoke: () => undefined },
    save: () => undefined,
  })
  return { store, items, replaced, made, server }
}

const settle = () => new Promise((r) => setTimeout(r, 0))

describe('the console store', () => {
  it('takes a token from the URL fragment, keeps it and wipes it from the address', async () => {
    const { store, items, replaced, server } = setup('#token=right')
    store.start()
    await settle()
    expect(store.token.value).toBe('right')
    expect(items.get(TOKEN_KEY)).toBe('right')
    expect(replaced).toEqual(['/console/#/'])
    expect(server.calls.every((c) => c.auth === 'Bearer right')).toBe(true)
    expect(store.tasks.value?.map((t) => t.id)).toEqual(['t1', 't3', 't2'])
  })

  it('keeps a token from a link only once the server accepts it, so a link cannot sign the person out', async () => {
    const { store, items, replaced, server } = setup('#token=forged', 'right')
    store.start()
    await settle()
    await settle()
    expect(replaced).toEqual(['/console/#/'])
    expect(store.token.value).toBe('right')
    expect(items.get(TOKEN_KEY)).toBe('right')
    expect(store.authError.value).toMatch(/refused this token/)
    expect(server.calls.filter((c) => c.auth === 'Bearer forged')).toHaveLength(1)

    store.navigate('#/?token=forged')
    await settle()
    await settle()
    expect(store.token.value).toBe('right')
    expect(items.get(TOKEN_KEY)).toBe('right')
  })

  it('keeps a typed token only once the server accepts it, and says plainly when it does not', async () => {
    const { store, items } = setup()
    store.start()
    expect(store.token.value).toBeNull()
    await store.connect('wrong')
    expect(store.token.value).toBeNull()
    expect(items.has(TOKEN_KEY)).toBe(false)
    expect(store.authError.value).toMatch(/refused this token/)
    await store.connect('  right ')
    expect(store.token.value).toBe('right')
    expect(items.get(TOKEN_KEY)).toBe('right')
    expect(store.authError.value).toBe('')
  })

  it('forgets a stored token the server now refuses and asks again', async () => {
    const { store, items } = setup('#/', 'stale')
    store.start()
    await settle()
    await settle()
    expect(store.token.value).toBeNull()
    expect(items.has(TOKEN_KEY)).toBe(false)
    expect(store.authError.value).toMatch(/refused this token/)
  })

  it('filters tasks by status (or all active ones) and by words of the goal, newest first', async () => {
    const { store } = setup('#/', 'right')
    store.start()
    await settle()
    await settle()
    expect(store.visibleTasks.value.map((t) => t.id)).toEqual(['t3', 't2', 't1'])
    store.statusFilter.value = 'active'
    expect(store.visibleTasks.value.map((t) => t.id)).toEqual(['t3'])
    store.statusFilter.value = 'FAILED'
    expect(store.visibleTasks.value.map((t) => t.id)).toEqual(['t2'])
    store.statusFilter.value = 'all'
    store.textFilter.value = 'IPHONE'
    expect(store.visibleTasks.value.map((t) => t.id)).toEqual(['t1'])
  })

  it('fetches each screenshot once, with the token, into an object URL', async () => {
    const { store, made, server } = setup('#/task/t1', 'right')
    store.start()
    const [a, b] = await Promise.all([store.image('t1', '0001-before-x.jpg'), store.image('t1', '0001-before-x.jpg')])
    expect(a).toBe('blob:0')
    expect(b).toBe(a)
    expect(made).toHaveLength(1)
    expect(server.calls.filter((c) => c.url.includes('/artifacts/'))).toEqual([{ url: '/api/audit/t1/artifacts/0001-before-x.jpg', auth: 'Bearer right' }])
  })

  it("fetches a long task's screenshots a few at a time", async () => {
    let release!: () => void
    const server = fakeServer('right', new Promise<void>((r) => (release = r)))
    const { store } = setup('#/task/t1', 'right', server)
    store.start()
    const all = Promise.all(Array.from({ length: 12 }, (_, i) => store.image('t1', `${i}-before-x.jpg`)))
    await settle()
    expect(server.inFlight.now).toBe(4)
    release()
    expect(new Set(await all).size).toBe(12)
    expect(server.inFlight.most).toBe(4)
  })

  it('searches skills in one call, each result saying whether it replays with no LLM', async () => {
    const { store, server } = setup('#/skills', 'right')
    store.start()
    await store.searchSkills('phone', '')
    expect(store.skillsError.value).toBe('')
    expect(store.skillResults.value?.map((s) => [s.slug, s.scripted])).toEqual([
      ['buy-a-phone', true],
      ['compare-phones', false],
    ])
    // The page lists the whole library on opening; the search is one more call.
    expect(server.calls.filter((c) => c.url.startsWith('/api/skills')).map((c) => c.url.split('?')[0])).toEqual(['/api/skills', '/api/skills/search'])
  })

  it('lists every skill before any search, and again when the search is emptied', async () => {
    const { store, server } = setup('#/skills', 'right')
    store.start()
    await settle()
    expect(store.skillResults.value?.map((s) => [s.slug, s.own ?? false])).toEqual([
      ['buy-a-phone', false],
      ['my-form', true],
      ['tidy-inbox', false],
    ])
    await store.searchSkills('phone', '')
    expect(store.skillResults.value).toHaveLength(2)
    await store.searchSkills('  ', ' ')
    expect(store.skillResults.value).toHaveLength(3)
    expect(server.calls.map((c) => c.url.split('?')[0])).toEqual(['/api/skills', '/api/skills/search', '/api/skills'])
  })

  it('opens a skill to read its SKILL.md, and says so in words when it is gone', async () => {
    const { store } = setup('#/skills/buy-a-phone', 'right')
    store.start()
    await settle()
    expect(store.route.value).toEqual({ page: 'skill', slug: 'buy-a-phone' })
    expect(store.openSkill.value).toMatchObject({ slug: 'buy-a-phone', body: '## Steps\n1. Open the shop.', 'start-url': 'https://shop.test/' })
    store.navigate('#/skills/gone')
    await settle()
    expect(store.openSkill.value).toBeNull()
    expect(store.skillsError.value).toBe('Not found: No skill gone.')
  })

  it('explains a missing clients route, a skill that exists and a server error in words', async () => {
    const { store } = setup('#/clients', 'right')
    store.start()
    await settle()
    await settle()
    expect(store.clientsError.value).toBe('This server does not list its clients.')
    await store.saveSkill({ taskId: 't1' })
    expect(store.saveError.value).toMatch(/A skill with that name exists/)
    await store.saveSkill({ taskId: 't1', slug: 'login-safely', overwrite: true })
    expect(store.saveError.value).toBe('A skill that comes with Tandem has that name, and it is never replaced: choose another folder name.')
    await store.searchSkills('x', '')
    expect(store.skillsError.value).toBe('The server answered with an error (INTERNAL): boom')
  })
})

describe('console routes', () => {
  it('reads pages from the fragment', () => {
    expect(parseRoute('#/task/abc_123')).toEqual({ page: 'task', taskId: 'abc_123' })
    expect(parseRoute('#/skills')).toEqual({ page: 'skills' })
    expect(parseRoute('#/skills/demo-contact-form')).toEqual({ page: 'skill', slug: 'demo-contact-form' })
    expect(hrefOf({ page: 'skill', slug: 'demo-contact-form' })).toBe('#/skills/demo-contact-form')
    expect(parseRoute('#/clients')).toEqual({ page: 'clients' })
    expect(parseRoute('')).toEqual({ page: 'tasks' })
    expect(parseRoute('#token=x')).toEqual({ page: 'tasks' })
  })
})

describe('the console and replay texts', () => {
  it('exist in English and Chinese, with the same placeholders', () => {
    expect(translationGaps(CONSOLE_DICTIONARIES)).toEqual([])
    expect(translationGaps(REPLAY_DICTIONARIES)).toEqual([])
  })

  it('name every status with the words the side panel uses, in both languages', () => {
    const statuses = ['RUNNING', 'WAITING_CONFIRMATION', 'WAITING_USER', 'WAITING_PAGE', 'PAUSED', 'SUCCEEDED', 'FAILED', 'CANCELED'] as const
    for (const lang of ['en', 'zh-CN'] as const) {
      const [replay, panel] = [replayTranslator(lang), panelTranslator(lang)]
      for (const status of statuses) expect(replay(`status_${status}`)).toBe(panel(`status.${status}`))
    }
    expect(replayTranslator('en')('status_SUCCEEDED')).toBe('Done')
    expect(replayTranslator('zh-CN')('status_WAITING_CONFIRMATION')).toBe('等待你批准')
  })

  it("put the risk line's colon in the reader's language", () => {
    expect(replayTranslator('en')('why', { reasons: 'a; b' })).toBe('Why it is risky: a; b')
    expect(replayTranslator('zh-CN')('why', { reasons: '甲；乙' })).toBe('风险原因：甲；乙')
  })
})

describe('the console’s words for a server error', () => {
  it('are the code’s plain sentence for a Chinese reader, with the code beside it, and the server’s exact words in English', () => {
    const error = new ApiError('server', 500, 'INTERNAL', 'boom')
    expect(explain(error, consoleTranslator('zh-CN'), 'zh-CN')).toBe('服务器返回错误（INTERNAL）：Tandem 服务器内部出错了。请重试；如果再次出现，请查看服务器的输出。')
    expect(explain(error, consoleTranslator('en'))).toBe('The server answered with an error (INTERNAL): boom')
  })
})

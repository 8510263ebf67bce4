import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, createApi, type Api } from '../../ui/console/api'
import { consoleTranslator } from '../../ui/console/i18n'
import { createConsoleStore } from '../../ui/console/store'
import { fakeFetch, track } from '../support/hung-fetch'

/** Every call the console makes, with the deadline it is pinned to. */
const CALLS: [string, (api: Api) => Promise<unknown>, number][] = [
  ['tasks', (api) => api.tasks(), 10_000],
  ['status', (api) => api.status('t1'), 10_000],
  ['audit', (api) => api.audit('t1'), 20_000],
  ['searchSkills', (api) => api.searchSkills('phone'), 10_000],
  ['clients', (api) => api.clients(), 10_000],
  ['saveSkill', (api) => api.saveSkill({ taskId: 't1' }), 10_000],
  ['an artifact', (api) => api.blob(api.artifactPath('t1', 'a1-before.png')), 10_000],
  ['the export', (api) => api.blob(api.exportPath('t1')), 10_000],
]

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('console api deadlines', () => {
  for (const behaviour of ['hang', 'deaf', 'stall', 'stall-deaf'] as const) {
    it.each(CALLS)(`${behaviour}: %s gives up at its deadline as NOT_ANSWERING, not before`, async (_name, call, ms) => {
      const { fetch, sent } = fakeFetch(behaviour)
      const outcome = track(call(createApi({ token: () => 'right', fetch })))
      await vi.advanceTimersByTimeAsync(ms - 1)
      expect(outcome.settled).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      expect(outcome.error).toBeInstanceOf(ApiError)
      expect(outcome.error).toMatchObject({ kind: 'timeout', code: 'NOT_ANSWERING', message: `No answer within ${ms / 1000} s.` })
      expect(sent[0].signal.aborted).toBe(true)
      expect(vi.getTimerCount()).toBe(0)
    })
  }

  it('a download may take longer than its deadline while bytes keep coming', async () => {
    let push!: ReadableStreamDefaultController<Uint8Array>
    const fetch = (async () =>
      new Response(new ReadableStream<Uint8Array>({ start: (c) => void (push = c) }), { status: 200, headers: { 'content-type': 'application/zip' } })) as unknown as typeof globalThis.fetch
    const api = createApi({ token: () => 'right', fetch })
    const whole = track(api.blob(api.exportPath('t1')))
    for (let i = 0; i < 6; i++) {
      await vi.advanceTimersByTimeAsync(9_000)
      push.enqueue(new Uint8Array([i]))
    }
    push.close()
    await vi.advanceTimersByTimeAsync(0)
    expect(whole.error).toBeUndefined()
    expect((whole.value as Blob).size).toBe(6)
  })

  it('a refused connection is a network error at once', async () => {
    const fetch = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof globalThis.fetch
    await expect(createApi({ token: () => 'right', fetch }).tasks()).rejects.toMatchObject({ kind: 'network' })
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('the console, when the server does not answer', () => {
  for (const [lang, said] of [
    ['en', /^The Tandem server is not answering: .*Try again/],
    ['zh-CN', /^Tandem 服务器没有响应：.*请重试；.*。$/],
  ] as const) {
    it(`says so on the task list (${lang}), and clears it once the server answers`, async () => {
      let answering = true
      const { fetch: hang } = fakeFetch('hang')
      const fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
        answering ? Promise.resolve(Response.json({ ok: true, data: [] })) : hang(input, init)) as typeof globalThis.fetch
      let store!: ReturnType<typeof createConsoleStore>
      const api = createApi({ token: () => store.token.value, fetch })
      const items = new Map<string, string>()
      store = createConsoleStore({
        api,
        t: consoleTranslator(lang),
        place: {
          storage: { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v), removeItem: (k) => void items.delete(k) },
          location: { hash: '#/', pathname: '/console/', search: '' },
          history: { replaceState: () => undefined },
        },
        objectUrl: { create: () => 'blob:0', revoke: () => undefined },
        save: () => undefined,
      })
      await store.connect('right')
      expect(store.token.value).toBe('right')
      answering = false
      store.refresh()
      await vi.advanceTimersByTimeAsync(10_000)
      expect(store.tasksError.value).toMatch(said)
      // Not answering is no refused token: the console keeps it.
      expect(store.token.value).toBe('right')

      answering = true
      store.refresh()
      await vi.advanceTimersByTimeAsync(0)
      expect(store.tasksError.value).toBe('')
    })
  }
})

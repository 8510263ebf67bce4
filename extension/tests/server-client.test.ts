import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createServerClient, type ServerClient } from '../lib/server/client'
import { ServerError } from '../lib/server/errors'
import { fakeFetch, track } from '../../test/support/hung-fetch'

const URL_ = 'http://127.0.0.1:3000'

const clientOver = (fetch: typeof globalThis.fetch): ServerClient =>
  createServerClient({ settings: async () => ({ serverUrl: URL_, token: 't' }), clientId: async () => 'ext_1', version: '0.1.0', fetch })

const observation = { status: 'done' as const, url: 'http://shop.test/', title: 'Shop', errors: [], timing: {} }

/**
 * Every call the extension makes, with the deadline it is pinned to. Changing one is a decision: change it in
 * deadlines.ts and here, and keep the worker's calls (next, report, status, pause, resume, cancel) under 30 s.
 */
const CALLS: [string, (c: ServerClient) => Promise<unknown>, number][] = [
  ['health', (c) => c.health(), 5_000],
  ['info', (c) => c.info(), 6_000],
  ['start', (c) => c.start({ goal: 'buy a cable' }), 15_000],
  ['next (long-poll of 20 s)', (c) => c.next({ waitMs: 20_000 }), 25_000],
  ['next (long-poll of 3 s)', (c) => c.next({ taskId: 'task1', waitMs: 3_000 }), 8_000],
  ['next (no wait)', (c) => c.next({}), 5_000],
  ['report', (c) => c.report({ taskId: 'task1', actionId: 'act1', observation }), 20_000],
  ['confirm', (c) => c.confirm({ taskId: 'task1', actionId: 'act1', approved: true }), 15_000],
  ['confirm (always allow)', (c) => c.confirm({ taskId: 'task1', actionId: 'act1', approved: true, always: true }), 15_000],
  ['answer', (c) => c.answer({ taskId: 'task1', answer: 'blue' }), 15_000],
  ['pause', (c) => c.pause({ taskId: 'task1' }), 15_000],
  ['resume', (c) => c.resume({ taskId: 'task1' }), 15_000],
  ['cancel', (c) => c.cancel({ taskId: 'task1' }), 15_000],
  ['status', (c) => c.status('task1'), 6_000],
  ['tasks', (c) => c.tasks(), 6_000],
  ['searchSkills', (c) => c.searchSkills('cable'), 6_000],
  ['saveSkill', (c) => c.saveSkill({ taskId: 'task1' }), 15_000],
  ['allowedWrites', (c) => c.allowedWrites(), 6_000],
  ['forgetWrite', (c) => c.forgetWrite({ site: 'https://shop.test', method: 'POST', path: '/api/drafts/*/delete' }), 15_000],
  ['artifact', (c) => c.artifact('task1', 'a1-before.png'), 10_000],
  ['exportAudit', (c) => c.exportAudit('task1'), 10_000],
]

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('server client deadlines', () => {
  const servers = {
    hang: 'never answers',
    deaf: 'never answers, to a fetch that ignores the abort',
    stall: 'sends headers and then stalls',
    'stall-deaf': 'sends headers and then stalls, over a body that ignores the abort',
  } as const
  for (const [behaviour, what] of Object.entries(servers) as [keyof typeof servers, string][]) {
    describe(`a server that ${what}`, () => {
      it.each(CALLS)('%s gives up at its deadline as NOT_ANSWERING, not before', async (_name, call, ms) => {
        const { fetch, sent } = fakeFetch(behaviour)
        const outcome = track(call(clientOver(fetch)))
        await vi.advanceTimersByTimeAsync(ms - 1)
        expect(outcome.settled).toBe(false)
        await vi.advanceTimersByTimeAsync(1)
        expect(outcome.error).toBeInstanceOf(ServerError)
        expect(outcome.error).toMatchObject({ code: 'NOT_ANSWERING', message: `The Tandem server at ${URL_} did not answer within ${Math.round(ms / 1000)} s.` })
        // The request itself is aborted, so the browser lets go of the connection.
        expect(sent).toHaveLength(1)
        expect(sent[0].init.signal?.aborted).toBe(true)
        expect(vi.getTimerCount()).toBe(0)
      })
    })
  }

  it('a refused connection is UNREACHABLE at once, and leaves no timer behind', async () => {
    const { fetch } = fakeFetch('refuse')
    for (const [, call] of CALLS) {
      await expect(call(clientOver(fetch))).rejects.toMatchObject({ code: 'UNREACHABLE' })
      expect(vi.getTimerCount()).toBe(0)
    }
  })

  it('a prompt answer clears its deadline', async () => {
    const fetch = (async () => Response.json({ ok: true, data: { taskId: null, status: null, action: null } })) as unknown as typeof globalThis.fetch
    await expect(clientOver(fetch).next({ waitMs: 20_000 })).resolves.toEqual({ taskId: null, status: null, action: null })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('the caller’s own abort ends a long-poll with the caller’s reason, not as a server failure', async () => {
    const { fetch } = fakeFetch('hang')
    const stop = new AbortController()
    const outcome = track(clientOver(fetch).next({ waitMs: 20_000 }, stop.signal))
    await vi.advanceTimersByTimeAsync(1_000)
    stop.abort()
    await vi.advanceTimersByTimeAsync(0)
    expect(outcome.error).not.toBeInstanceOf(ServerError)
    expect((outcome.error as Error).name).toBe('AbortError')
    expect(vi.getTimerCount()).toBe(0)
  })

  it('a download may take longer than its deadline while bytes keep coming, and times out once they stop', async () => {
    const chunkEveryMs = 4_000
    let push!: ReadableStreamDefaultController<Uint8Array>
    const fetch = (async (_input: RequestInfo | URL, init: RequestInit = {}) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          push = controller
          init.signal!.addEventListener('abort', () => controller.error(init.signal!.reason))
        },
      })
      return new Response(body, { status: 200, headers: { 'content-type': 'application/zip' } })
    }) as typeof globalThis.fetch
    const client = clientOver(fetch)

    const whole = track(client.exportAudit('task1'))
    for (let i = 0; i < 10; i++) {
      await vi.advanceTimersByTimeAsync(chunkEveryMs)
      push.enqueue(new Uint8Array([i]))
    }
    push.close()
    await vi.advanceTimersByTimeAsync(0)
    expect(whole.error).toBeUndefined()
    expect((whole.value as Blob).type).toBe('application/zip')
    expect((whole.value as Blob).size).toBe(10)

    const cut = track(client.exportAudit('task1'))
    await vi.advanceTimersByTimeAsync(chunkEveryMs)
    push.enqueue(new Uint8Array([1]))
    await vi.advanceTimersByTimeAsync(10_000 - 1)
    expect(cut.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(cut.error).toMatchObject({ code: 'NOT_ANSWERING' })
  })

  it('a server error envelope on a download is still the server’s refusal, read within the deadline', async () => {
    const fetch = (async () =>
      Response.json({ ok: false, error: { code: 'NOT_FOUND', message: 'There is no audit log for that task.' } }, { status: 404 })) as unknown as typeof globalThis.fetch
    await expect(clientOver(fetch).exportAudit('nope')).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 })
    expect(vi.getTimerCount()).toBe(0)
  })
})

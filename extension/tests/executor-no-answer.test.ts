import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeBrowser } from 'wxt/testing'
import type { ObservationInput } from '#protocol'
import { createExecutor } from '../lib/executor/executor'
import { activityItem, readState } from '../lib/executor/state'
import { createServerClient } from '../lib/server/client'
import { action } from './fakes'

const URL_ = 'http://127.0.0.1:3000'
const done: ObservationInput = { status: 'done', url: 'http://shop.example/', title: 'Shop', errors: [], timing: {} }

/**
 * The engine where the worker cares, behind a fetch: one action, offered until a report of it arrives, a repeated
 * report acknowledged as a duplicate. `hang` decides which requests are taken and then never answered.
 */
function hangingServer(hang: (path: string, nth: number) => boolean) {
  const applied = new Set<string>()
  const requests: { path: string; actionId?: string }[] = []
  const json = (data: unknown) => Response.json({ ok: true, data })
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = new URL(String(input)).pathname
    const body = init.body ? JSON.parse(String(init.body)) : {}
    requests.push({ path, ...(body.actionId ? { actionId: body.actionId } : {}) })
    const nth = requests.filter((r) => r.path === path).length
    let answer: Response
    if (path === '/api/agent/report') {
      // The server applies the report; only its answer may be lost.
      const duplicate = applied.has(body.actionId)
      applied.add(body.actionId)
      answer = json({ accepted: true, duplicate, status: 'RUNNING' })
    } else if (path === '/api/agent/next') {
      answer = applied.has('act1') ? json({ taskId: 'task1', status: 'SUCCEEDED', action: null }) : json({ taskId: 'task1', status: 'RUNNING', action: action() })
    } else {
      answer = new Response('not found', { status: 404 })
    }
    if (!hang(path, nth)) return answer
    const signal = init.signal!
    return new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)))
  }) as typeof globalThis.fetch
  return { fetch, requests, applied }
}

function setup(server: ReturnType<typeof hangingServer>) {
  const client = createServerClient({ settings: async () => ({ serverUrl: URL_, token: 't' }), clientId: async () => 'ext_1', version: '0.1.0', fetch: server.fetch })
  /** What the panel read from the worker at each pause before a retry. */
  const heard: string[] = []
  const execute = vi.fn(async () => done)
  const executor = createExecutor({
    server: client,
    execute,
    keepAlive: async () => ({}),
    serverUrl: async () => URL_,
    sleep: async () => void heard.push((await activityItem.getValue()).connection),
    keepAliveMs: 600_000,
  })
  return { executor, execute, heard }
}

/** Lets the worker's promises run (storage, fetch) without moving the clock. */
async function settleUntil(condition: () => boolean) {
  for (let i = 0; i < 200 && !condition(); i++) await vi.advanceTimersByTimeAsync(0)
  expect(condition()).toBe(true)
}

beforeEach(() => {
  fakeBrowser.reset()
  vi.useFakeTimers()
})
afterEach(() => vi.useRealTimers())

describe('a server that takes a call and never answers it', () => {
  it('has the report retried with the same actionId once its 20 s deadline passes: the action ran once, the report was applied once', async () => {
    const server = hangingServer((path, nth) => path === '/api/agent/report' && nth === 1)
    const { executor, execute, heard } = setup(server)
    const wake = executor.wake(true)
    const reports = () => server.requests.filter((r) => r.path === '/api/agent/report')
    await settleUntil(() => reports().length === 1)

    await vi.advanceTimersByTimeAsync(20_000 - 1)
    expect(reports()).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    await settleUntil(() => reports().length === 2)
    await wake

    expect(reports().map((r) => r.actionId)).toEqual(['act1', 'act1'])
    expect(execute).toHaveBeenCalledTimes(1)
    // The panel heard at once that the server is not answering, and then that it is back.
    expect(heard).toEqual(['not_answering'])
    expect(await activityItem.getValue()).toMatchObject({ connection: 'ok', failures: 0 })
    expect((await readState()).inflight).toBeNull()
    expect((await readState()).reported).toEqual(['act1'])
  })

  it('gives a long-poll of 20 s up after 25 s, asks again, and once every try ran out backs off saying the server is not answering', async () => {
    const server = hangingServer((path) => path === '/api/agent/next')
    const { executor, execute, heard } = setup(server)
    const wake = executor.wake(true)
    const polls = () => server.requests.filter((r) => r.path === '/api/agent/next').length
    await settleUntil(() => polls() === 1)
    await vi.advanceTimersByTimeAsync(25_000 - 1)
    expect(polls()).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    await settleUntil(() => polls() === 2)
    await vi.advanceTimersByTimeAsync(25_000)
    await settleUntil(() => polls() === 3)
    await vi.advanceTimersByTimeAsync(25_000)
    await wake

    expect(execute).not.toHaveBeenCalled()
    expect(heard).toEqual(['not_answering', 'not_answering'])
    const activity = await activityItem.getValue()
    expect(activity).toMatchObject({ connection: 'not_answering', failures: 1, retryAt: Date.now() + 30_000 })
    expect(activity.message).toMatch(/did not answer within 25 s\. Next try at/)
  })
})

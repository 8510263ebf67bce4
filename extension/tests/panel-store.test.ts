import { describe, expect, it, vi } from 'vitest'
import type { StatusView } from '#protocol'
import { createPanelStore, explain, type PanelDeps } from '../lib/panel/store'
import { ServerError } from '../lib/server/errors'
import { action } from './fakes'

function view(status: StatusView['task']['status'], extra: Partial<StatusView> = {}): StatusView {
  return {
    task: { id: 'task1', goal: 'buy', status, mode: 'script', createdAt: '', updatedAt: '', stepCount: 0, ...(status === 'WAITING_USER' ? { question: 'Authorise?' } : {}) },
    currentAction: null,
    pendingConfirmation: null,
    steps: [],
    usage: { llmCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, latencyMs: 0 },
    ...extra,
  }
}

function setup(status: StatusView = view('RUNNING'), activity: unknown = null) {
  let followed: string | null = 'task1'
  const client = {
    health: vi.fn(async () => undefined),
    info: vi.fn(async () => ({ name: 'tandem', version: '0.1.0', llm: { configured: false } })),
    start: vi.fn(async () => ({ taskId: 'task2', status: 'RUNNING' as const })),
    confirm: vi.fn(async () => ({ status: 'RUNNING' as const })),
    answer: vi.fn(async () => ({ status: 'RUNNING' as const })),
    status: vi.fn(async () => status),
  }
  const deps: PanelDeps = {
    client,
    settings: { get: async () => ({ serverUrl: 'http://127.0.0.1:3000', token: 't' }), set: vi.fn(async () => undefined) },
    activity: { get: async () => activity, watch: () => () => undefined },
    wake: vi.fn(async () => undefined),
    followed: { get: async () => followed, set: async (id) => void (followed = id) },
  }
  return { store: createPanelStore(deps), client, deps }
}

describe('panel store', () => {
  it('explains failures in words that say what to do', () => {
    expect(explain(new ServerError('UNREACHABLE', 'x'), 'http://127.0.0.1:3000')).toMatch(/not reachable.*npm start/)
    expect(explain(new ServerError('UNAUTHORIZED', 'x', 401), '')).toMatch(/rejected the token/)
  })

  it('refuses a server URL that is not http(s) and saves a good one, then wakes the worker', async () => {
    const { store, deps } = setup()
    await store.load()
    await store.saveSettings({ serverUrl: 'file:///etc/passwd', token: 't' })
    expect(deps.settings.set).not.toHaveBeenCalled()
    expect(store.notice.value).toMatch(/http\(s\)/)
    await store.saveSettings({ serverUrl: 'http://127.0.0.1:4000/', token: ' abc ' })
    expect(deps.settings.set).toHaveBeenCalledWith({ serverUrl: 'http://127.0.0.1:4000', token: 'abc' })
    expect(deps.wake).toHaveBeenCalled()
  })

  it('approves the pending confirmation by its action id and wakes the worker', async () => {
    const pending = { actionId: 'act9', action: action({ actionId: 'act9', risk: 'high', requiresConfirmation: true }), risk: 'high' as const, reasons: ['places an order'] }
    const { store, client, deps } = setup(view('WAITING_CONFIRMATION', { pendingConfirmation: pending }))
    await store.load()
    expect(store.pending.value?.reasons).toEqual(['places an order'])
    await store.decide(true)
    expect(client.confirm).toHaveBeenCalledWith({ taskId: 'task1', actionId: 'act9', approved: true })
    expect(deps.wake).toHaveBeenCalled()
  })

  it('offers to authorise the site the worker was refused, and answers the task once granted', async () => {
    const activity = { connection: 'ok', message: '', failures: 0, retryAt: null, task: null, lastAction: null, needsSite: { taskId: 'task1', origin: 'http://shop.test' } }
    const { store, client } = setup(view('WAITING_USER'), activity)
    await store.load()
    expect(store.needsSite.value).toBe('http://shop.test')
    await store.siteDecided('http://shop.test', false)
    expect(client.answer).not.toHaveBeenCalled()
    await store.siteDecided('http://shop.test', true)
    expect(client.answer).toHaveBeenCalledWith({ taskId: 'task1', answer: expect.stringContaining('http://shop.test') })
  })

  it('says what the connection test found', async () => {
    const { store, client } = setup()
    await store.load()
    await store.testConnection()
    expect(store.notice.value).toMatch(/Connected to tandem 0.1.0.*no LLM/)
    client.health.mockRejectedValueOnce(new ServerError('UNREACHABLE', 'x'))
    await store.testConnection()
    expect(store.notice.value).toMatch(/not reachable/)
  })
})

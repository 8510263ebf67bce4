import { parseHTML } from 'linkedom'
import { h, render } from 'preact'
import { afterEach, describe, expect, it } from 'vitest'
import type { HeldRequest, StatusView } from '#protocol'
import { createApi } from '../../ui/console/api'
import { Decision } from '../../ui/console/components/Decision'
import { ConsoleContext } from '../../ui/console/context'
import { consoleTranslator } from '../../ui/console/i18n'
import { createConsoleStore } from '../../ui/console/store'
import type { Lang } from '../../ui/i18n'

const cartItem: HeldRequest = {
  method: 'POST',
  url: 'https://shop.example/api/cart/41/items',
  origin: 'https://shop.example',
  path: '/api/cart/41/items',
  kind: 'fetch',
  fields: [],
}
const waiting: StatusView = {
  task: { id: 't1', goal: 'fill the cart', status: 'WAITING_CONFIRMATION', mode: 'llm', createdAt: '', updatedAt: '', stepCount: 1 },
  currentAction: null,
  pendingConfirmation: {
    actionId: 'rel1',
    action: { taskId: 't1', actionId: 'rel1', seq: 2, type: 'release', params: { holds: ['h1'], requests: [cartItem] }, risk: 'high', requiresConfirmation: true },
    risk: 'high',
    reasons: ['The page tries to send POST https://shop.example/api/cart/41/items'],
    evidence: { requests: [cartItem] },
  },
  steps: [],
  usage: { llmCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, latencyMs: 0 },
}

// Preact renders into whatever `document` is global: a linkedom one stands in for the browser's.
const savedDocument = globalThis.document
afterEach(() => {
  globalThis.document = savedDocument
})
const settle = () => new Promise((resolve) => setTimeout(resolve, 10))

/** The console on a task waiting for the person, over a server that records what it was sent. */
function mountDecision(lang: Lang) {
  const window = parseHTML('<!doctype html><html><body></body></html>')
  globalThis.document = window.document as unknown as Document
  const sent: unknown[] = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
    if (String(input) === '/api/agent/confirm') {
      sent.push(JSON.parse(String(init?.body)))
      return json({ ok: true, data: { status: 'RUNNING' } })
    }
    return json({ ok: true, data: String(input).startsWith('/api/audit/') ? { events: [], verified: null } : waiting })
  }) as typeof globalThis.fetch
  const t = consoleTranslator(lang)
  const api = createApi({ token: () => 'tok', fetch })
  const store = createConsoleStore({
    api,
    t,
    lang,
    place: {
      storage: { getItem: () => null, setItem: () => undefined, removeItem: () => undefined },
      location: { hash: '#/tasks/t1', pathname: '/console/', search: '' },
      history: { replaceState: () => undefined },
    },
    objectUrl: { create: () => 'blob:0', revoke: () => undefined },
    save: () => undefined,
  })
  store.taskView.value = waiting
  const root = document.createElement('div')
  document.body.appendChild(root)
  render(h(ConsoleContext.Provider, { value: { store, t, lang } }, h(Decision, { taskId: 't1' })), root)
  const click = (el: Element) => el.dispatchEvent(new window.Event('click'))
  const tick = (box: HTMLInputElement) => {
    box.checked = true
    box.dispatchEvent(new window.Event('change'))
  }
  return { root, sent, click, tick }
}

describe('the console answers the step a task waits on', () => {
  it('offers to allow requests like a held write for the rest of the task, and sends forTask with Approve', async () => {
    const { root, sent, click, tick } = mountDecision('en')
    const forTask = root.querySelector('[data-testid="decide-for-task"]')!
    expect(forTask.textContent).toContain('Allow requests like this for the rest of this task')
    expect(root.querySelector('[data-testid="decide-kinds"]')?.textContent).toBe('POST shop.example /api/cart/*/items')
    tick(forTask.querySelector('input') as HTMLInputElement)
    await settle()
    click(root.querySelector('button.primary')!)
    await settle()
    expect(sent).toEqual([{ taskId: 't1', actionId: 'rel1', approved: true, forTask: true }])
  })

  it('sends one scope only: ticking always after forTask sends always', async () => {
    const { root, sent, click, tick } = mountDecision('en')
    tick(root.querySelector('[data-testid="decide-for-task"] input') as HTMLInputElement)
    await settle()
    tick(root.querySelector('[data-testid="decide-always"] input') as HTMLInputElement)
    await settle()
    click(root.querySelector('button.primary')!)
    await settle()
    expect(sent).toEqual([{ taskId: 't1', actionId: 'rel1', approved: true, always: true }])
  })

  it('rejects with neither, and says it in Chinese', async () => {
    const { root, sent, click, tick } = mountDecision('zh-CN')
    expect(root.querySelector('[data-testid="decide-for-task"]')?.textContent).toContain('本任务中此类请求都允许')
    tick(root.querySelector('[data-testid="decide-for-task"] input') as HTMLInputElement)
    await settle()
    click(root.querySelector('button.danger')!)
    await settle()
    expect(sent).toEqual([{ taskId: 't1', actionId: 'rel1', approved: false, reason: '在控制台中拒绝' }])
  })
})

import { h } from 'preact'
import { signal } from '@preact/signals'
import { describe, expect, it, vi } from 'vitest'
import type { AskAlwaysRule, HarmlessWrite, HeldRequest, PendingConfirmation, StatusView } from '#protocol'
import { asksAlways } from '#protocol'
import { Confirmation } from '../../extension/components/Confirmation'
import { Timeline } from '../../extension/components/Timeline'
import { panelTranslator } from '../../extension/lib/panel/i18n'
import type { PanelStore } from '../../extension/lib/panel/store'
import type { Lang } from '../../ui/i18n'
import { useMount } from '../support/mount'

const mount = useMount()

const cartItem: HeldRequest = {
  method: 'POST',
  url: 'https://shop.example/api/cart/41/items',
  origin: 'https://shop.example',
  path: '/api/cart/41/items',
  kind: 'fetch',
  fields: [{ name: 'sku', value: 'A1' }],
}
const release: PendingConfirmation = {
  actionId: 'rel1',
  action: { taskId: 'task1', actionId: 'rel1', seq: 2, type: 'release', params: { holds: ['h1'], requests: [cartItem] }, risk: 'high', requiresConfirmation: true },
  risk: 'high',
  reasons: ['The page tries to send POST https://shop.example/api/cart/41/items'],
  evidence: { url: 'https://shop.example/cart', origin: 'https://shop.example', requests: [cartItem] },
}
const cartChange: HarmlessWrite = {
  kind: 'cart',
  request: { method: 'POST', url: 'https://shop.example/cart/change.js', origin: 'https://shop.example', path: '/cart/change.js', kind: 'fetch', fields: [] },
}
const step = { seq: 1, number: 1, actionId: 'a1', type: 'click', risk: 'low' as const, outcome: 'done' as const, errors: [], at: '2026-01-01T00:00:00Z', harmless: [cartChange] }
const statusView = (): StatusView => ({
  task: { id: 'task1', goal: 'fill the cart', status: 'RUNNING', mode: 'llm', createdAt: '', updatedAt: '', stepCount: 1 },
  currentAction: null,
  pendingConfirmation: null,
  steps: [step],
  usage: { llmCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, latencyMs: 0 },
})

/** The panel store as the two components read it: a card waiting, a timeline, and the kinds always asked about. */
function fakeStore(lang: Lang, asked: AskAlwaysRule[] = []) {
  const allowForTask = signal(false)
  const alwaysAllow = signal(false)
  const task = {
    pending: signal(release),
    view: signal(statusView()),
    running: signal(null),
    rejectReason: signal(''),
    alwaysAllow,
    allowForTask,
    setAllowForTask: vi.fn((on: boolean) => void (allowForTask.value = on)),
    setAlwaysAllow: vi.fn((on: boolean) => void (alwaysAllow.value = on)),
    setRejectReason: vi.fn(),
    decide: vi.fn(async () => undefined),
  }
  const askAlways = { isAsked: (rule: AskAlwaysRule) => asksAlways(asked, rule.site, rule.kind), toggle: vi.fn(async () => undefined) }
  return { t: panelTranslator(lang), lang, task, askAlways, busy: signal(false) } as unknown as PanelStore & { task: typeof task; askAlways: typeof askAlways }
}

describe('the confirmation card offers to allow requests like this for the rest of the task', () => {
  it('shows the option beside "always on this site", with the rule as method, site and path', () => {
    const store = fakeStore('en')
    const root = mount(h(Confirmation, { store }))
    const forTask = root.querySelector('[data-testid="allow-for-task"]')!
    expect(forTask.textContent).toContain('Allow requests like this for the rest of this task')
    expect(forTask.querySelector('[data-testid="for-task-kinds"]')?.textContent).toBe('POST https://shop.example/api/cart/*/items')
    expect(root.querySelector('[data-testid="always-allow"]')?.textContent).toContain('Always allow this on this site')
    const box = forTask.querySelector('input[name="forTask"]') as HTMLInputElement
    box.checked = true
    box.dispatchEvent(new (globalThis.document.defaultView as any).Event('change'))
    expect(store.task.setAllowForTask).toHaveBeenCalledWith(true)
  })

  it('says it in Chinese', () => {
    const root = mount(h(Confirmation, { store: fakeStore('zh-CN') }))
    expect(root.querySelector('[data-testid="allow-for-task"]')?.textContent).toContain('本任务中此类请求都允许')
  })

  it('offers neither for a step that is no held write', () => {
    const store = fakeStore('en')
    store.task.pending.value = { ...release, action: { ...release.action, type: 'click', params: {} } }
    const root = mount(h(Confirmation, { store }))
    expect(root.querySelector('[data-testid="allow-for-task"]')).toBeNull()
    expect(root.querySelector('[data-testid="always-allow"]')).toBeNull()
  })
})

describe('the timeline reports the harmless writes a step sent, each with "always ask"', () => {
  it('lists them and toggles their kind on their site', () => {
    const store = fakeStore('en')
    const root = mount(h(Timeline, { store }))
    const line = root.querySelector('[data-testid="harmless-write"]')!
    expect(line.textContent).toContain('Sent without asking: cart change to shop.example /cart/change.js')
    const toggle = line.querySelector('[data-testid="ask-always-toggle"]') as HTMLButtonElement
    expect(toggle.textContent).toBe('Always ask about cart changes on shop.example')
    expect(toggle.getAttribute('aria-pressed')).toBe('false')
    toggle.dispatchEvent(new (globalThis.document.defaultView as any).Event('click'))
    expect(store.askAlways.toggle).toHaveBeenCalledWith({ site: 'shop.example', kind: 'cart' })
  })

  it('says when the kind is asked about already, in both languages', () => {
    const en = mount(h(Timeline, { store: fakeStore('en', [{ site: 'shop.example', kind: 'cart' }]) }))
    expect(en.querySelector('[data-testid="harmless-write"]')?.textContent).toContain('Tandem asks about cart changes on shop.example')
    expect(en.querySelector('[data-testid="ask-always-toggle"]')?.getAttribute('aria-pressed')).toBe('true')
    const zh = mount(h(Timeline, { store: fakeStore('zh-CN') }))
    expect(zh.querySelector('[data-testid="harmless-write"]')?.textContent).toContain('未询问即发送：购物车变更，发往 shop.example /cart/change.js')
    expect(zh.querySelector('[data-testid="ask-always-toggle"]')?.textContent).toBe('在 shop.example 上发送购物车变更前总是询问')
  })
})

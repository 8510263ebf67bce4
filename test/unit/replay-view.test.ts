import { parseHTML } from 'linkedom'
import { h, render } from 'preact'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditEvent } from '#protocol'
import type { Lang } from '../../ui/i18n'
import { replayTranslator } from '../../ui/replay/i18n'
import { buildReplay } from '../../ui/replay/model'
import { ReplayView } from '../../ui/replay/ReplayView'

const HASH = 'a'.repeat(64)
const source = { clientId: 'c_ext', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' }
const request = {
  method: 'POST',
  url: 'https://shop.example/api/orders',
  origin: 'https://shop.example',
  path: '/api/orders',
  kind: 'fetch',
  fields: [{ name: 'items' }, { name: 'address', value: '••••' }],
}
const events: AuditEvent[] = [
  { type: 'task.created', data: { goal: 'buy a phone', mode: 'llm', source } },
  { type: 'some.future.event', data: { anything: 1 } },
  { type: 'task.status', data: { from: 'RUNNING', to: 'NAPPING' } },
  { type: 'write.held', data: { request, reason: 'method', stepActionId: 'a1' } },
  { type: 'write.released', data: { request, by: 'c_ext', at: '2025-11-02T10:00:05.000Z' } },
  // The step that let the held request go: named in the reader's words like every other action.
  {
    type: 'action.proposed',
    actionId: 'a2',
    data: { action: { taskId: 't1', actionId: 'a2', seq: 2, type: 'release', params: { holds: ['h1'] }, risk: 'low', requiresConfirmation: false }, risk: 'low', reasons: [] },
  },
  // A double click (editing a to-do in place), named as the reader says it.
  {
    type: 'action.proposed',
    actionId: 'a3',
    data: { action: { taskId: 't1', actionId: 'a3', seq: 3, type: 'double_click', target: { by: 'index', value: 4 }, params: {}, risk: 'low', requiresConfirmation: false }, risk: 'low', reasons: [] },
  },
  { type: 'write.refused', data: { request, why: 'rejected', by: 'c_ext' } },
  { type: 'write.dropped', data: { request: { ...request, origin: 'https://stats.example', path: '/collect', fields: [] }, reason: 'telemetry-host' } },
  { type: 'write.allowed', data: { request: { ...request, path: '/api/drafts/8/delete', fields: [] } } },
  {
    type: 'write.allowed',
    data: { request: { ...request, path: '/api/cart/41/items', fields: [] }, rule: { site: 'https://shop.example', method: 'POST', path: '/api/cart/*/items' }, scope: 'task' },
  },
  { type: 'write.harmless', data: { request: { ...request, path: '/cart/change.js', fields: [] }, kind: 'cart' } },
].map((e, i) => ({ seq: i + 1, ts: new Date(Date.parse('2025-11-02T10:00:00.000Z') + i * 1000).toISOString(), taskId: 't1', ...e, prevHash: HASH, hash: HASH }))

// Preact renders into whatever `document` is global: a linkedom one stands in for the browser's.
const saved = globalThis.document
beforeAll(() => {
  globalThis.document = parseHTML('<!doctype html><html><body></body></html>').document as unknown as Document
})
afterAll(() => {
  globalThis.document = saved
})

function renderText(lang: Lang): string {
  const root = document.createElement('div')
  document.body.appendChild(root)
  render(h(ReplayView, { replay: buildReplay(events), t: replayTranslator(lang), lang, image: (name: string) => name }), root)
  return root.textContent ?? ''
}

describe('the replay of an audit with events it cannot show and requests the barrier held', () => {
  it('renders, naming the unknown and the unreadable event, and each held request, in English', () => {
    const text = renderText('en')
    expect(text).toContain('buy a phone')
    expect(text).toContain('Unknown event: some.future.event')
    expect(text).toMatch(/Unreadable event: task\.status \(data\.to: /)
    expect(text).toContain('Held: POST shop.example/api/orders (items, address)')
    expect(text).toContain('Send what the page tried to send')
    expect(text).toContain('Double-click')
    expect(text).toContain('Sent after approval: POST shop.example/api/orders (items, address)')
    expect(text).toContain('Refused — never reached the site: POST shop.example/api/orders (items, address)')
    expect(text).toContain('you said no to it')
    // The task's own browser let it go: the person, in its side panel, not a client id.
    expect(text).toContain('by you, in the side panel')
    expect(text).not.toContain('by c_ext')
    // The task's browser by the name a person knows it by, its id beside it.
    expect(text).toContain('Chrome 131 on Linux (extension c_ext)')
    expect(text).toContain('Dropped telemetry: POST stats.example/collect')
    expect(text).toContain('Sent without asking, as you always allow on this site: POST shop.example/api/drafts/8/delete')
    expect(text).toContain('Sent without asking, as you allowed for the rest of this task: POST shop.example/api/cart/41/items')
    expect(text).toContain('Rule: POST shop.example /api/cart/*/items')
    expect(text).toContain('Sent without asking: cart change to shop.example /cart/change.js')
    expect(text).not.toContain('••••')
  })

  it('and in Chinese', () => {
    const text = renderText('zh-CN')
    expect(text).toContain('未知事件：some.future.event')
    expect(text).toContain('Linux 上的 Chrome 131（扩展 c_ext）')
    expect(text).toContain('已拦截：POST shop.example/api/orders (items, address)')
    expect(text).toContain('未询问即发送（你已允许本任务中此类请求）：POST shop.example/api/cart/41/items')
    expect(text).toContain('规则：POST shop.example /api/cart/*/items')
    expect(text).toContain('未询问即发送：购物车变更，发往 shop.example /cart/change.js')
    expect(text).toContain('发送页面试图发送的请求')
    expect(text).toContain('双击')
    expect(text).toContain('批准后已发送：')
    expect(text).toContain('已拒绝——从未到达网站：')
    expect(text).toContain('由你（在侧边栏中）')
    expect(text).toContain('已丢弃的遥测：POST stats.example/collect')
    expect(text).toContain('未询问即发送（你已设置在此网站上始终允许）：POST shop.example/api/drafts/8/delete')
  })
})

describe('the replay names the skill a task followed', () => {
  const created = (data: Record<string, unknown>): AuditEvent[] =>
    [{ seq: 1, ts: '2025-11-02T10:00:00.000Z', taskId: 't2', type: 'task.created', data: { goal: 'send feedback', mode: 'script', source, ...data }, prevHash: HASH, hash: HASH }] as AuditEvent[]
  const skillLine = (list: AuditEvent[], lang: Lang) => {
    const root = document.createElement('div')
    document.body.appendChild(root)
    render(h(ReplayView, { replay: buildReplay(list), t: replayTranslator(lang), lang, image: (name: string) => name }), root)
    return root.querySelector('[data-skill-name]')?.textContent
  }

  it('by the name the person gave it, a value it asks for in words, and by its slug only when no name was kept', () => {
    expect(skillLine(created({ skill: 'skill-3fa9c1', skillName: '给演示页面发送反馈' }), 'en')).toBe('给演示页面发送反馈')
    expect(skillLine(created({ skill: 'buy-an-q', skillName: 'Buy an {{q}}' }), 'en')).toBe('Buy an q (asked each run)')
    expect(skillLine(created({ skill: 'buy-an-q', skillName: 'Buy an {{q}}' }), 'zh-CN')).toBe('Buy an q（每次运行时询问）')
    expect(skillLine(created({ skill: 'demo-contact-form' }), 'en')).toBe('demo-contact-form')
  })

  it('in the reader’s language where the skill has its Chinese, with what its steps were for', () => {
    const words = { 'Fill in the demo contact form': '填写演示联系表单', 'fill in your name': '填写你的姓名' }
    const list = [
      ...created({ skill: 'demo-contact-form', skillName: 'Fill in the demo contact form', wordsZh: words }),
      { seq: 2, ts: '2025-11-02T10:00:01.000Z', taskId: 't2', type: 'action.proposed', actionId: 'a1', data: { action: { taskId: 't2', actionId: 'a1', seq: 1, type: 'type', params: { text: 'Ada' }, risk: 'low', requiresConfirmation: false, reason: 'fill in your name' }, risk: 'low', reasons: [], goal: 'fill in your name' }, prevHash: HASH, hash: HASH },
    ] as AuditEvent[]
    expect(skillLine(list, 'zh-CN')).toBe('填写演示联系表单')
    expect(skillLine(list, 'en')).toBe('Fill in the demo contact form')
    const text = (lang: Lang) => {
      const root = document.createElement('div')
      document.body.appendChild(root)
      render(h(ReplayView, { replay: buildReplay(list), t: replayTranslator(lang), lang, image: (name: string) => name }), root)
      return root.textContent ?? ''
    }
    expect(text('zh-CN')).toContain('填写你的姓名')
    expect(text('en')).toContain('fill in your name')
  })
})

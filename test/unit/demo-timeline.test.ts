import { describe, expect, it } from 'vitest'
import type { AuditEvent, StepView } from '#protocol'
import { DEMO_TEXT, demoText, terminalLang } from '../../scripts/demo/messages'
import { fillFromAudit, formatStep, needsAudit, newSteps, waitingLine } from '../../scripts/demo/timeline'
import { EVIDENCE_GOAL, describeRiskReason, type PendingConfirmation, type RiskReason } from '#protocol'
import { translationGaps } from '../../ui/i18n'

const step = (over: Partial<StepView> = {}): StepView => ({
  seq: 9,
  actionId: 'a_order',
  type: 'click',
  risk: 'high',
  outcome: 'done',
  errors: [],
  at: '2026-01-01T00:00:00.000Z',
  ...over,
})

const event = (seq: number, type: string, data: Record<string, unknown>, actionId = 'a_order'): AuditEvent =>
  ({ seq, ts: '2026-01-01T00:00:00.000Z', taskId: 't1', type, actionId, data, prevHash: '', hash: '' }) as AuditEvent

const proposed = (actionId: string, action: Record<string, unknown>) => ({
  action: { taskId: 't1', actionId, seq: 9, risk: 'high', requiresConfirmation: true, params: {}, ...action },
  risk: 'high',
  reasons: [],
})
const observed = (artifacts: unknown[]) => ({ status: 'done', url: 'http://shop.test/', title: 'Shop', errors: [], artifacts, timing: {}, elementCount: 0, treeChars: 0 })

describe('demo timeline', () => {
  it('prints seq, action, target, risk, outcome, screenshots and goal on one line', () => {
    const line = formatStep(
      step({
        target: 'Place order',
        goal: 'Place the order',
        artifacts: [
          { name: '0009-before-x.jpg', label: 'before' },
          { name: '0009-after-y.jpg', label: 'after' },
        ],
      }),
    )
    expect(line).toBe('#9 · click · “Place order” · high · done · before artifacts/0009-before-x.jpg, after artifacts/0009-after-y.jpg  — Place the order')
  })

  it('names a navigation by its page, and shows errors and a rejection note', () => {
    expect(formatStep(step({ type: 'navigate', risk: 'low', url: 'http://127.0.0.1:1/shop/' }))).toBe('#9 · navigate · http://127.0.0.1:1/shop/ · low · done · —')
    const failed = formatStep(step({ outcome: 'failed', errors: [{ code: 'TARGET_NOT_FOUND', message: 'no such button' }] }))
    expect(failed).toContain('! TARGET_NOT_FOUND: no such button')
    expect(formatStep(step({ outcome: 'rejected', note: 'not today' }))).toContain('· rejected · —  (not today)')
  })

  it('fills target, goal and screenshots from the audit when the status view leaves them out', () => {
    const events = [
      event(1, 'action.proposed', proposed('a_order', { type: 'click', target: { by: 'text', value: 'Place order' }, reason: 'Place the order' })),
      event(2, 'observation', observed([{ name: '0009-before-x.jpg', label: 'before', contentType: 'image/jpeg', bytes: 1, sha256: 'a' }])),
      event(3, 'observation', observed([{ name: 'other.jpg', label: 'after', contentType: 'image/jpeg', bytes: 1, sha256: 'b' }]), 'a_other'),
      event(4, 'action.proposed', proposed('a_wait', { type: 'waitFor', params: { text: 'confirmed' } }), 'a_wait'),
      event(5, 'observation', { artifacts: 'not a list' }),
    ]
    expect(needsAudit(step())).toBe(true)
    const filled = fillFromAudit(step(), events)
    expect(filled).toMatchObject({ target: 'Place order', goal: 'Place the order', artifacts: [{ name: '0009-before-x.jpg', label: 'before' }] })
    expect(needsAudit(filled)).toBe(false)
    expect(fillFromAudit(step({ actionId: 'a_wait', type: 'waitFor' }), events).target).toBe('confirmed')
    // What the server already says wins over the audit.
    expect(fillFromAudit(step({ target: 'Buy now' }), events).target).toBe('Buy now')
  })

  it('hands out each step once, in order, and again when its outcome changes', () => {
    const printed = new Set<string>()
    expect(newSteps([step({ seq: 2, actionId: 'b' }), step({ seq: 1, actionId: 'a' })], printed).map((s) => s.seq)).toEqual([1, 2])
    expect(newSteps([step({ seq: 1, actionId: 'a' }), step({ seq: 2, actionId: 'b' })], printed)).toEqual([])
    expect(newSteps([step({ seq: 2, actionId: 'b', outcome: 'failed' })], printed)).toHaveLength(1)
  })
})

describe('demo text', () => {
  it('has every line in Chinese too, with the same placeholders', () => {
    expect(translationGaps(DEMO_TEXT)).toEqual([])
  })

  it('follows the terminal locale', () => {
    expect(terminalLang({ LANG: 'zh_CN.UTF-8' })).toBe('zh-CN')
    expect(terminalLang({ LC_ALL: 'en_US.UTF-8', LANG: 'zh_CN.UTF-8' })).toBe('en')
    expect(terminalLang({})).toBe('en')
    expect(demoText('zh-CN')('failed', { stage: '构建', message: 'x' })).toBe('演示在“构建”失败：x')
  })
})

describe('the demo in Chinese', () => {
  const zh = { t: demoText('zh-CN'), lang: 'zh-CN' as const }

  it('prints a step by the number the panel shows, with its risk, outcome and errors in Chinese', () => {
    const line = formatStep(step({ number: 3, outcome: 'failed', errors: [{ code: 'TARGET_NOT_FOUND', message: 'no such button' }] }), zh)
    expect(line).toMatch(/^#3 · 点击 · — · 高 · 失败 · — {2}! 页面上找不到要操作的元素。.*\(TARGET_NOT_FOUND\)$/)
    expect(line).not.toContain('high')
    // What was typed is beside its field; a password only as dots.
    expect(formatStep(step({ type: 'type', target: 'Name', text: 'Ada Lovelace', risk: 'medium' }), zh)).toMatch(/^#9 · 输入文字 · “Name” ← “Ada Lovelace” · 中 · /)
    expect(formatStep(step({ type: 'type', target: 'Password', sensitive: true, risk: 'high' }), zh)).toMatch(/^#9 · 输入文字 · “Password” ← •••• · 高 · /)
    // The picture taken before asking is not a step: no number, and its purpose in Chinese.
    const picture = formatStep(step({ type: 'screenshot', risk: 'low', goal: EVIDENCE_GOAL }), zh)
    expect(picture).toMatch(/^— · 截图 · — · 低 · 完成 · — {2}— 征求你批准前拍下的页面$/)
  })

  it('says why a step waits for approval in Chinese, risk and reasons alike', () => {
    const detail: RiskReason = { code: 'label-high', label: 'Place order', kind: 'payment' } as RiskReason
    const pending = {
      actionId: 'a1',
      action: { taskId: 't1', actionId: 'a1', seq: 4, type: 'click', target: { by: 'text', value: 'Place order' }, params: {}, risk: 'high', requiresConfirmation: true },
      risk: 'high',
      reasons: [describeRiskReason(detail, 'en')],
      reasonDetails: [detail],
    } as PendingConfirmation
    const line = waitingLine(pending, zh)
    expect(line).toBe(`等待批准：点击 “Place order”（风险 高），原因：${describeRiskReason(detail, 'zh-CN')}`)
    expect(line).not.toContain(describeRiskReason(detail, 'en'))
  })
})

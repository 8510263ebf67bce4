import { describe, expect, it } from 'vitest'
import type { AuditEvent, StatusView, StepView } from '#protocol'
import { EVIDENCE_GOAL, hasStepToReplay, ScriptStep, SkillSlug } from '#protocol'
import { createSkillSaver } from '../../server/lib/skills/save-skill'
import { proposedActions, recordSteps, secretNameFor } from '../../server/lib/skills/recorded-steps'
import { replayTargetOf, selectorFor } from '../../server/lib/skills/replay-target'
import { slugFrom, taskSlug } from '../../server/lib/skills/slug'
import { formToAction } from '../../server/lib/tasks/form-to-action'

describe('selectorFor', () => {
  it('prefers a stable id, then name, aria-label, placeholder, data-* attributes', () => {
    expect(selectorFor({ index: 0, tag: 'button', attributes: { id: 'buy', name: 'b' } })).toBe('#buy')
    expect(selectorFor({ index: 0, tag: 'button', attributes: { id: 'addfeedback' } })).toBe('#addfeedback')
    expect(selectorFor({ index: 0, tag: 'button', attributes: { id: 'btn-9f86d081', name: 'go' } })).toBe('button[name="go"]')
    expect(selectorFor({ index: 0, tag: 'input', attributes: { id: 'react-aria-1234', name: 'q' } })).toBe('input[name="q"]')
    expect(selectorFor({ index: 0, tag: 'button', attributes: { id: ':r5:', 'aria-label': 'Close "dialog"' } })).toBe('button[aria-label="Close \\"dialog\\""]')
    expect(selectorFor({ index: 0, tag: 'input', attributes: { placeholder: '搜索' } })).toBe('input[placeholder="搜索"]')
    expect(selectorFor({ index: 0, tag: 'div', attributes: { 'data-v-1a2b': '', 'data-qa': 'cart', 'data-testid': 'cart-button' } })).toBe('div[data-testid="cart-button"]')
    expect(selectorFor({ index: 0, tag: 'a', attributes: { href: '/x' }, text: 'Home' })).toBeUndefined()
  })

  it('falls back to visible text, then the input type; a script’s own selector or text stays as it was', () => {
    const link = { index: 3, tag: 'a', text: '  iPhone\n15 ', attributes: { href: '/p/1' } }
    expect(replayTargetOf({ by: 'index', value: 3 }, link, false)).toEqual({ text: 'iPhone 15' })
    expect(replayTargetOf({ by: 'index', value: 3 }, link, true)).toEqual({ target: { by: 'text', value: 'iPhone 15' } })
    expect(replayTargetOf({ by: 'index', value: 1 }, { index: 1, tag: 'input', attributes: { type: 'email' } }, true)).toEqual({ selector: 'input[type="email"]' })
    expect(replayTargetOf({ by: 'index', value: 1 }, undefined, false)).toBeUndefined()
    expect(replayTargetOf({ by: 'selector', value: '#a' }, undefined, false)).toEqual({ selector: '#a' })
    expect(replayTargetOf({ by: 'text', value: 'Go' }, undefined, false)).toEqual({ text: 'Go' })
  })
})

describe('slugs and secret names', () => {
  it('makes a slug of ASCII words, and a stable one of its own for a name in Chinese', () => {
    expect(slugFrom('Buy an iPhone 15 — at the Café!')).toBe('buy-an-iphone-15-at-the-cafe')
    // Letters beyond ASCII add a hash of the whole name: two Chinese names never meet in one slug.
    expect(slugFrom('在淘宝买 iPhone')).toMatch(/^iphone-[0-9a-f]{6}$/)
    expect(slugFrom('在京东买 iPhone')).toMatch(/^iphone-[0-9a-f]{6}$/)
    expect(slugFrom('在京东买 iPhone')).not.toBe(slugFrom('在淘宝买 iPhone'))
    expect(slugFrom('买15个苹果')).toMatch(/^skill-[0-9a-f]{6}$/)
    expect(slugFrom('买15个苹果')).toBe(slugFrom(' 买15个苹果 '))
    expect(slugFrom('发送反馈')).not.toBe(slugFrom('买15个苹果'))
    for (const name of ['发送反馈', '在淘宝买 iPhone', 'Отправить отзыв']) expect(SkillSlug.safeParse(slugFrom(name)).success).toBe(true)
    expect(slugFrom('🎉')).toBeUndefined()
    expect(slugFrom('x'.repeat(100))).toHaveLength(60)
    expect(taskSlug('Ab_C-d')).toBe('task-ab-c-d')
  })

  it('names a secret after the site and the field', () => {
    expect(secretNameFor({ index: 0, tag: 'input', attributes: { type: 'password', name: 'pw' } }, undefined, 'www.shop.test')).toBe('SHOP_PW')
    expect(secretNameFor({ index: 0, tag: 'input', attributes: { type: 'password' } }, undefined, '127.0.0.1')).toBe('PASSWORD')
    expect(secretNameFor(undefined, 'input#cvv', 'pay.test')).toBe('PAY_CVV')
  })
})

describe('recordSteps', () => {
  const step = (over: Partial<StepView>): StepView => ({ seq: 1, actionId: 'a1', type: 'click', risk: 'low', outcome: 'done', errors: [], at: '', url: 'https://x.test/', ...over })
  const proposed = (actionId: string, action: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    ({
      seq: 1,
      ts: '',
      taskId: 't',
      type: 'action.proposed',
      actionId,
      data: { action: { taskId: 't', actionId, seq: 1, risk: 'low', requiresConfirmation: false, params: {}, ...action }, risk: action.risk ?? 'low', reasons: [], ...extra },
      prevHash: '',
      hash: '',
    }) as unknown as AuditEvent

  const answered = (actionId: string, approved: boolean) =>
    ({ seq: 1, ts: '', taskId: 't', type: 'confirmation.answered', actionId, data: { approved, by: 'c', at: '', source: { clientId: 'c' } }, prevHash: '', hash: '' }) as unknown as AuditEvent

  it('keeps the steps that succeeded, leaves out observations, pictures and failures, and hides credentials', () => {
    const steps = [
      step({ seq: 1, actionId: 'a1', type: 'observe' }),
      step({ seq: 2, actionId: 'a2', type: 'click', outcome: 'failed' }),
      step({ seq: 3, actionId: 'a3', type: 'screenshot', goal: EVIDENCE_GOAL }),
      step({ seq: 4, actionId: 'a4', type: 'type', risk: 'high', target: 'Password' }),
      step({ seq: 5, actionId: 'a5', type: 'type' }),
    ]
    const events = [
      proposed('a2', { type: 'click', target: { by: 'text', value: 'Nope' } }),
      proposed('a3', { type: 'screenshot' }, { evidence: true }),
      proposed('a4', { type: 'type', risk: 'high', target: { by: 'index', value: 4 }, params: { text: '••••', sensitive: true } }, { element: { index: 4, tag: 'input', attributes: { type: 'password', id: 'pass' } } }),
      proposed('a5', { type: 'type', target: { by: 'selector', value: '#note' }, params: { text: 'hi {{secret:NOTE_KEY}}' } }),
      answered('a4', true),
    ]
    const recorded = recordSteps(steps, proposedActions(events))
    expect(recorded.map((r) => r.step)).toEqual([
      { type: 'type', selector: '#pass', text: '{{secret:X_PASS}}', risk: 'high' },
      { type: 'type', selector: '#note', text: 'hi {{secret:NOTE_KEY}}' },
    ])
    expect(recorded.flatMap((r) => r.secrets ?? [])).toEqual([
      { name: 'X_PASS', field: 'Password' },
      { name: 'NOTE_KEY', field: '#note' },
    ])
  })

  it('marks high the steps the person approved (asked first, or their held writes let go), not the ones whose words sounded risky', () => {
    const steps = [
      step({ seq: 1, actionId: 'a1', type: 'click', risk: 'high', target: 'Next' }),
      step({ seq: 2, actionId: 'a2', type: 'click', risk: 'high', target: 'Place order' }),
      step({ seq: 3, actionId: 'r2', type: 'release', risk: 'high' }),
      step({ seq: 4, actionId: 'a3', type: 'click', risk: 'medium', target: 'Delete' }),
      step({ seq: 5, actionId: 'a4', type: 'click', risk: 'medium', target: 'Archive' }),
    ]
    const events = [
      proposed('a1', { type: 'click', risk: 'high', target: { by: 'selector', value: '#next' } }),
      proposed('a2', { type: 'click', risk: 'high', target: { by: 'selector', value: '#order' } }),
      proposed('r2', { type: 'release', risk: 'high', requiresConfirmation: true, params: { holds: ['h1'], requests: [], after: 'a2' } }),
      answered('r2', true),
      proposed('a3', { type: 'click', risk: 'medium', target: { by: 'selector', value: '#delete' } }),
      answered('a3', true),
      proposed('a4', { type: 'click', risk: 'medium', target: { by: 'selector', value: '#archive' } }),
      answered('a4', false),
    ]
    const recorded = recordSteps(steps, proposedActions(events))
    expect(recorded.map((r) => [r.step, r.risk])).toEqual([
      [{ type: 'click', selector: '#next' }, 'medium'],
      [{ type: 'click', selector: '#order', risk: 'high' }, 'high'],
      [{ type: 'click', selector: '#delete', risk: 'high' }, 'high'],
      [{ type: 'click', selector: '#archive' }, 'medium'],
    ])
  })

  it('replays a double click and a right click as themselves, on the element found by its words', () => {
    const steps = [
      step({ seq: 1, actionId: 'a1', type: 'double_click', target: 'Buy milk' }),
      step({ seq: 2, actionId: 'a2', type: 'type', target: 'Buy milk' }),
      step({ seq: 3, actionId: 'a3', type: 'right_click', target: 'report.pdf' }),
    ]
    const label = { index: 6, tag: 'label', text: 'Buy milk', attributes: {} }
    const events = [
      proposed('a1', { type: 'double_click', target: { by: 'index', value: 6 } }, { element: label }),
      proposed('a2', { type: 'type', target: { by: 'selector', value: 'li.editing .edit' }, params: { text: 'Buy oat milk', submit: true } }),
      proposed('a3', { type: 'right_click', target: { by: 'index', value: 2 } }, { element: { index: 2, tag: 'div', text: 'report.pdf', attributes: { 'data-testid': 'file-row' } } }),
    ]
    const recorded = recordSteps(steps, proposedActions(events))
    expect(recorded.map((r) => r.step)).toEqual([
      { type: 'double_click', text: 'Buy milk' },
      { type: 'type', selector: 'li.editing .edit', text: '{{buy_milk}}', submit: true },
      { type: 'right_click', selector: 'div[data-testid="file-row"]' },
    ])
    expect(recorded.map((r) => r.words)).toEqual(['Double-click “Buy milk” on x.test', 'Type “{{buy_milk}}” into “Buy milk” on x.test and submit', 'Right-click “report.pdf” on x.test'])
    // What a replay runs: each step is a script step, and the double click goes out as one, by the label's text.
    for (const r of recorded) expect(ScriptStep.safeParse(r.step).success, JSON.stringify(r.step)).toBe(true)
    const replayed = formToAction(ScriptStep.parse(recorded[0]!.step) as Parameters<typeof formToAction>[0], { taskId: 't', actionId: 'r1', seq: 1 })
    expect(replayed).toMatchObject({ type: 'double_click', target: { by: 'text', value: 'Buy milk' } })
  })

  it('refuses a step whose element the audit does not describe', () => {
    const steps = [step({ actionId: 'a1' })]
    expect(() => recordSteps(steps, proposedActions([proposed('a1', { type: 'click', target: { by: 'index', value: 9 } })]))).toThrow(/step 1/)
  })

  it('names the step it refuses by the number the timeline shows, not counting the picture taken before asking', () => {
    const steps = [
      step({ seq: 1, actionId: 'a1', type: 'navigate' }),
      step({ seq: 2, actionId: 'a2', type: 'screenshot', goal: EVIDENCE_GOAL }),
      step({ seq: 3, actionId: 'a3', type: 'click' }),
    ]
    const events = [proposed('a1', { type: 'navigate', params: { url: 'https://x.test/' } }), proposed('a3', { type: 'click', target: { by: 'index', value: 9 } })]
    expect(() => recordSteps(steps, proposedActions(events))).toThrow(/^step 2 \(click\)/)
  })
})

describe('saving a task with nothing to replay', () => {
  const view = (steps: StepView[]): StatusView => ({
    task: { id: 't1', goal: 'open the shop', status: 'FAILED', mode: 'llm', createdAt: '', updatedAt: '', stepCount: steps.length },
    currentAction: null,
    pendingConfirmation: null,
    steps,
    usage: { llmCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, latencyMs: 0 },
  })
  const row = (seq: number, type: string, outcome: StepView['outcome']): StepView => ({ seq, actionId: `a${seq}`, type, risk: 'low', outcome, errors: [], at: '' })

  it.each([
    ['no step worked', [row(1, 'navigate', 'failed'), row(2, 'click', 'failed')]],
    ['it only looked at the page and took a picture', [row(1, 'observe', 'done'), row(2, 'screenshot', 'done')]],
    ['the person took over the only step', [row(1, 'waitFor', 'taken_over')]],
  ])('is refused with a clear error when %s', async (_name, steps) => {
    const saver = createSkillSaver({ status: async () => view(steps), events: async () => [], skillsDir: '/nonexistent', index: async () => ({ get: () => undefined, add: () => undefined, list: () => [] }) })
    await expect(saver.save({ taskId: 't1' })).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/no step to replay/) })
  })

  it('tells a task with a step to replay from one without', () => {
    expect(hasStepToReplay([row(1, 'navigate', 'done'), row(2, 'click', 'done')])).toBe(true)
    expect(hasStepToReplay([row(1, 'navigate', 'done')])).toBe(true)
    expect(hasStepToReplay([row(1, 'click', 'rejected'), row(2, 'screenshot', 'done')])).toBe(false)
  })
})

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  ACTIONS,
  ACTION_TYPES,
  Action,
  ActionType,
  AgentOutput,
  LlmActionForm,
  ScriptStep,
  actionTypesWhere,
  classifyRisk,
  mayNavigate,
  readParams,
  upToBatchEnd,
  type ActionForm,
  type ActionSpec,
} from '#protocol'
import { SYSTEM_PROMPT } from '../../server/lib/agent/prompt/system'
import { formToAction, isPlannedAction } from '../../server/lib/tasks/form-to-action'

/** Key order and the order of `required` carry no meaning: compare the schemas without them. */
const canon = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(canon)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, k === 'required' ? [...(v as Record<string, string[]>)[k]!].sort() : canon((v as Record<string, unknown>)[k])]),
        )
      : v

const ids = { taskId: 't1', actionId: 'a1', seq: 1 }

/** Per action, params a plan may give (accepted) and ones it may not (refused), with an element where one is needed. */
const CASES: Record<string, { element?: Record<string, unknown>; good: Record<string, unknown>[]; bad: Record<string, unknown>[] }> = {
  navigate: { good: [{ url: 'https://shop.test/' }], bad: [{}, { url: '' }, { url: 42 }] },
  // A click carries nothing but its element (an empty `text` names no element: see the test on targets below).
  click: { element: { index: 3 }, good: [{}, { text: 'Buy' }], bad: [] },
  type: {
    element: { index: 1 },
    good: [{ text: 'hello' }, { text: '', clear: true }, { text: 'q', submit: true }],
    bad: [{}, { text: 5 }, { text: 'x', submit: 'yes' }, { text: 'x'.repeat(20_001) }],
  },
  select: { element: { selector: '#size' }, good: [{ option: 'M' }], bad: [{}, { option: '' }] },
  press: { good: [{ keys: 'Enter' }], bad: [{}, { keys: '' }, { keys: 'x'.repeat(201) }] },
  scroll: { good: [{ direction: 'down' }, { direction: 'up', amount: 300 }], bad: [{}, { direction: 'left' }, { direction: 'up', amount: -1 }] },
  waitFor: { good: [{}, { text: 'Done' }, { selector: '#ok', timeoutMs: 2000 }], bad: [{ timeoutMs: 500_000 }, { urlIncludes: '' }] },
  extract: { good: [{ instruction: 'the price' }, { instruction: 'rows', schema: { type: 'object' } }], bad: [{}, { instruction: '' }] },
  back: { good: [{}], bad: [] },
  upload: { element: { index: 4 }, good: [{ file: 'cv.pdf' }], bad: [{}, { file: '' }, { file: 'x'.repeat(256) }, { file: 7 }] },
  switch_tab: { good: [{ tab: 2 }], bad: [{}, { tab: 0 }, { tab: 1.5 }, { tab: '2' }] },
  close_tab: { good: [{}, { tab: 3 }], bad: [{ tab: 0 }, { tab: 'last' }] },
  hover: { element: { index: 4 }, good: [{}, { text: 'Products' }], bad: [] },
  drag: { element: { index: 2 }, good: [{ to: 5 }, { to: 0, text: 'Task A' }], bad: [{}, { to: -1 }, { to: 1.5 }, { to: '5' }] },
  // A double or right click carries nothing but its element, as a click.
  double_click: { element: { index: 6 }, good: [{}, { text: 'Buy milk' }], bad: [] },
  right_click: { element: { selector: '.file' }, good: [{}, { text: 'report.pdf' }], bad: [] },
}

describe('the action registry is the one source of every action', () => {
  it('lists every wire type exactly once, in the enum’s order', () => {
    expect(ActionType.options).toEqual(Object.keys(ACTIONS))
    expect(new Set(ACTION_TYPES).size).toBe(ACTION_TYPES.length)
    // What the model writes has a case in the table below: a new action cannot skip it.
    expect(Object.keys(CASES).sort()).toEqual(actionTypesWhere((s) => s.proposedBy === 'model').sort())
  })

  it('shows the model every action it may propose, one line each, as its own form reads it', () => {
    for (const type of actionTypesWhere((s) => s.proposedBy === 'model')) {
      const line = (ACTIONS[type] as ActionSpec).example
      expect(line, type).toBeDefined()
      expect(SYSTEM_PROMPT).toContain(`\n${line}\n`)
      expect(line!.startsWith(`{"type":"${type}"`), line).toBe(true)
    }
    // Only the model's actions: a script's or the engine's own never reach its instructions.
    expect(SYSTEM_PROMPT).not.toContain('"type":"release"')
    expect(SYSTEM_PROMPT).not.toContain('"type":"observe"')
  })

  it('keeps the forms the model and scripts write as they were (the planner’s structured output is a contract)', () => {
    const recorded = JSON.parse(readFileSync(new URL('../fixtures/action-forms.schema.json', import.meta.url), 'utf8'))
    expect(canon(z.toJSONSchema(AgentOutput, { unrepresentable: 'any' }))).toEqual(recorded.agent)
    expect(canon(z.toJSONSchema(ScriptStep, { unrepresentable: 'any' }))).toEqual(recorded.script)
  })

  for (const [type, { element = {}, good, bad }] of Object.entries(CASES)) {
    it(`${type}: the model’s form, a script’s step and the params the extension reads accept and refuse the same`, () => {
      for (const params of [...good, ...bad]) {
        const form = { type, ...element, ...params }
        const llm = LlmActionForm.safeParse(form)
        const script = ScriptStep.safeParse(form)
        expect(script.success, JSON.stringify(form)).toBe(llm.success)
        expect(llm.success, JSON.stringify(form)).toBe(good.includes(params))
        // What the page reads (run-action parses with readParams): the params the server builds from the form, or
        // the raw ones for a refused form.
        const planned = llm.success ? (llm.data as ActionForm) : undefined
        const partial = planned && isPlannedAction(planned) ? formToAction(planned, ids) : { ...ids, type, params }
        const action = Action.parse({ ...partial, risk: 'low', requiresConfirmation: false })
        expect(readParams(action).ok, JSON.stringify(action.params)).toBe(good.includes(params))
      }
    })
  }

  it('refuses an element-less click, type or select in either form, and says which need one', () => {
    for (const type of actionTypesWhere((s) => s.target === 'required')) {
      const form = { type, text: 'x', option: 'x', file: 'x', to: 2 }
      const text = type === 'type' ? false : true
      expect(LlmActionForm.safeParse(form).success).toBe(text)
      expect(LlmActionForm.safeParse({ type, option: 'x', text: 'x', file: 'x', to: 2, index: 1 }).success).toBe(true)
    }
    const refused = LlmActionForm.safeParse({ type: 'select', option: 'M' })
    expect(refused.error?.issues[0]?.message).toBe('click, type, select, hover, drag, upload, double_click and right_click need an element: index, selector, text or target')
  })

  it('stops a plan at the action that ends a batch (extract)', () => {
    const plan = [{ type: 'click' }, { type: 'extract' }, { type: 'click' }]
    expect(upToBatchEnd(plan).map((a) => a.type)).toEqual(['click', 'extract'])
    expect(upToBatchEnd([{ type: 'click' }, { type: 'scroll' }])).toHaveLength(2)
  })

  it('judges the risk of exactly the actions the table says are judged; the others rise only by their planner’s word', () => {
    // One subject that alarms every rule: a delete button in a settings form posting to /account/delete.
    const element = { tag: 'button', text: 'Delete account', attributes: { type: 'submit' }, form: { method: 'post', action: '/account/delete' } }
    const params = { url: 'javascript:alert(1)', text: '{{secret:pw}}', submit: true, keys: 'Control+Enter', option: 'Delete account', instruction: 'x', direction: 'down' }
    for (const type of ACTION_TYPES) {
      const { risk } = classifyRisk({ actionType: type, params, element, dropTarget: element, url: 'https://shop.test/settings' })
      expect(risk === 'low', type).toBe(ACTIONS[type].risk === 'declared')
      expect(classifyRisk({ actionType: type, params: {}, declared: 'high' }).risk, type).toBe('high')
    }
  })

  it('says which actions may leave the page as their normal effect', () => {
    expect(mayNavigate({ type: 'click', params: {} })).toBe(true)
    // A double click's first click follows a link; a right click opens a menu and goes nowhere.
    expect(mayNavigate({ type: 'double_click', params: {} })).toBe(true)
    expect(mayNavigate({ type: 'right_click', params: {} })).toBe(false)
    expect(mayNavigate({ type: 'type', params: { text: 'q' } })).toBe(false)
    expect(mayNavigate({ type: 'type', params: { text: 'q', submit: true } })).toBe(true)
    expect(mayNavigate({ type: 'scroll', params: { direction: 'down' } })).toBe(false)
    expect(mayNavigate({ type: 'teleport', params: {} })).toBe(false)
  })

  it('keeps params a type does not declare on the wire and in what the reader sees (an older or newer peer’s keys)', () => {
    const action = Action.parse({ ...ids, type: 'type', target: { by: 'index', value: 1 }, params: { text: 'pw', sensitive: true, later: 1 }, risk: 'low', requiresConfirmation: false })
    const read = readParams(action)
    expect(read.ok && read.action.type === 'type' && read.action.params).toEqual({ text: 'pw', sensitive: true, later: 1 })
  })
})

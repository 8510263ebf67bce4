import { h } from 'preact'
import { computed, signal } from '@preact/signals'
import { describe, expect, it } from 'vitest'
import type { StatusView, StepView, TaskExchange, TaskStatus } from '#protocol'
import { TaskControls } from '../../extension/components/TaskControls'
import { Timeline } from '../../extension/components/Timeline'
import { panelControls } from '../../extension/lib/panel/controls'
import { panelTranslator } from '../../extension/lib/panel/i18n'
import type { PanelStore } from '../../extension/lib/panel/store'
import type { Lang } from '../../ui/i18n'
import { useMount } from '../support/mount'

const mount = useMount()

const step = (seq: number, type: string, at: string, outcome: StepView['outcome'] = 'done'): StepView => ({
  seq,
  number: seq,
  actionId: `a${seq}`,
  type,
  risk: 'low',
  outcome,
  errors: outcome === 'taken_over' ? [{ code: 'TAKEN_OVER', message: 'The person took over while this action ran.' }] : [],
  at,
})
const statusView = (status: TaskStatus, steps: StepView[] = [], exchanges?: TaskExchange[]): StatusView => ({
  task: { id: 'task1', goal: 'order a shirt', status, mode: 'llm', createdAt: '', updatedAt: '', stepCount: steps.length },
  currentAction: null,
  pendingConfirmation: null,
  steps,
  usage: { llmCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, latencyMs: 0 },
  ...(exchanges ? { exchanges } : {}),
})

/** The panel store as the two components read it. */
function fakeStore(lang: Lang, view: StatusView) {
  const status = signal(view.task.status)
  const task = {
    view: signal(view),
    status,
    controls: computed(() => panelControls(status.value)),
    running: signal(null),
    pause: async () => undefined,
    resume: async () => undefined,
    cancel: async () => undefined,
    exportAudit: async () => undefined,
  }
  return {
    t: panelTranslator(lang),
    lang,
    task,
    busy: signal(false),
    takeover: signal(null),
    saveSkill: { offered: signal(false), form: signal(null), open: () => undefined },
    askAlways: { isAsked: () => false, toggle: async () => undefined },
  } as unknown as PanelStore
}

const buttons = (root: HTMLElement) => [...root.querySelectorAll('button')].map((b) => b.textContent)

describe('the task controls in the panel', () => {
  it('offers no Pause (take over) while a plan waits for approval, only Cancel', () => {
    const root = mount(h(TaskControls, { store: fakeStore('en', statusView('WAITING_PLAN')) }))
    expect(buttons(root).join('|')).not.toMatch(/Pause/)
    expect(buttons(root).join('|')).toMatch(/Cancel/)
  })

  it('offers Pause (take over) while the task runs', () => {
    const root = mount(h(TaskControls, { store: fakeStore('en', statusView('RUNNING')) }))
    expect(buttons(root).join('|')).toMatch(/Pause/)
  })
})

describe('the timeline shows the questions asked and the person’s answers', () => {
  const steps = [step(1, 'navigate', '2026-01-01T10:00:00.000Z'), step(2, 'scroll', '2026-01-01T10:02:00.000Z')]
  const asked: TaskExchange[] = [{ question: 'Which size?', answer: 'Large', at: '2026-01-01T10:01:00.000Z' }]

  it('between the steps it came between, in English', () => {
    const root = mount(h(Timeline, { store: fakeStore('en', statusView('RUNNING', steps, asked)) }))
    const items = [...root.querySelectorAll('[data-testid="step"], [data-testid="exchange"]')].map((el) => el.getAttribute('data-testid'))
    expect(items).toEqual(['step', 'exchange', 'step'])
    const exchange = root.querySelector('[data-testid="exchange"]')!
    expect(exchange.textContent).toContain('Tandem asked')
    expect(exchange.textContent).toContain('Which size?')
    expect(exchange.textContent).toContain('You answered')
    expect(exchange.textContent).toContain('Large')
  })

  it('in Chinese, with a site question and the person’s Allow said in their words', () => {
    const site: TaskExchange = {
      question: 'Tandem has no permission to act on https://shop.example. Authorise this site in the side panel, then answer to continue.',
      site: 'https://shop.example',
      answer: 'The site https://shop.example is authorised; continue.',
      siteAccess: 'allowed',
      at: '2026-01-01T10:01:00.000Z',
    }
    const root = mount(h(Timeline, { store: fakeStore('zh-CN', statusView('RUNNING', steps, [{ ...asked[0]!, at: '2026-01-01T10:00:30.000Z' }, site])) }))
    const [question, allowed] = [...root.querySelectorAll('[data-testid="exchange"]')].map((el) => el.textContent)
    expect(question).toContain('Tandem 问')
    expect(question).toContain('你回答')
    expect(allowed).toContain('Tandem 请求在 https://shop.example 上操作')
    expect(allowed).toContain('你允许了 https://shop.example。')
    expect(allowed).not.toMatch(/authorised/)
  })

  it('shows a task with only a question answered, not "No steps yet"', () => {
    const root = mount(h(Timeline, { store: fakeStore('en', statusView('RUNNING', [], asked)) }))
    expect(root.textContent).not.toContain('No steps yet')
    expect(root.querySelector('[data-testid="exchange"]')).not.toBeNull()
  })

  it('says a step the person took over was stopped by them, not that it failed', () => {
    const root = mount(h(Timeline, { store: fakeStore('en', statusView('PAUSED', [step(1, 'waitFor', '2026-01-01T10:00:00.000Z', 'taken_over')])) }))
    const text = root.querySelector('[data-testid="step"]')!.textContent
    expect(text).toContain('stopped: you took over')
    expect(text).not.toMatch(/failed|slow/)
  })
})

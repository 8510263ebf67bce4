import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createStorage } from 'unstorage'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { describeError, describeResult, type ScriptStep } from '#protocol'
import { createAuditLog } from '../../server/lib/audit/log'
import { buildReplay } from '../../ui/replay/model'
import { h } from 'preact'
import { signal } from '@preact/signals'
import type { StatusView } from '#protocol'
import { Timeline } from '../../extension/components/Timeline'
import { panelTranslator } from '../../extension/lib/panel/i18n'
import type { PanelStore } from '../../extension/lib/panel/store'
import { replayTranslator } from '../../ui/replay/i18n'
import { ReplayView } from '../../ui/replay/ReplayView'
import type { Lang } from '../../ui/i18n'
import type { AuditEvent } from '#protocol'
import { inProcessEngine } from '../support/engine'
import { useMount } from '../support/mount'

const mount = useMount()

/** The side panel's timeline of a status view: the numbers beside its rows, and its text. */
function panelTimeline(view: StatusView, lang: Lang) {
  const store = { t: panelTranslator(lang), lang, task: { view: signal(view), running: signal(null) } } as unknown as PanelStore
  const root = mount(h(Timeline, { store }))
  const rows = [...root.querySelectorAll('[data-testid="step"]')]
  return { numbers: rows.map((r) => r.querySelector('.step-seq')?.textContent ?? null), text: root.textContent ?? '' }
}

/** replay.html and the console's task page: the numbers of its rows, and its text. */
function replayPage(events: AuditEvent[], lang: Lang) {
  const root = mount(h(ReplayView, { replay: buildReplay(events), t: replayTranslator(lang), lang, image: (name: string) => name }))
  const rows = [...root.querySelectorAll('li.step')]
  return { numbers: rows.map((r) => r.getAttribute('data-number')), text: root.textContent ?? '' }
}

const source = { clientId: 'c1', version: '0.1.0' }
const observation = { status: 'done' as const, url: 'http://shop.example/', title: 'Shop', elementTree: '', visibleTextSnippet: '', errors: [], timing: {} }
let dir: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-numbers-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function boot() {
  const audit = createAuditLog({ dir, fsync: false })
  const engine = inProcessEngine(createStorage(), audit)
  return { engine, audit }
}

/** Runs every action the server hands out until it waits for the person or ends. */
async function runUntilStill(engine: ReturnType<typeof boot>['engine'], taskId: string) {
  for (let i = 0; i < 20; i++) {
    const { action } = await engine.next({ clientId: 'c1', taskId, waitMs: 0 }, source)
    if (!action) return
    // The page names the element a selector found, as the extension does (PageActionResult.targetName).
    const named = action.target?.by === 'selector' && action.target.value === '#name' ? { targetName: 'Your name' } : {}
    await engine.report({ taskId, actionId: action.actionId, observation: { ...observation, ...named } }, source)
  }
}

const script: ScriptStep[] = [
  { type: 'observe' },
  { type: 'type', selector: '#name', text: 'Ada Lovelace' },
  // Declared high: the server takes a picture of the page before asking, which is not a step of its own.
  { type: 'click', text: 'Place order', risk: 'high' },
  { type: 'click', text: 'Back to shop' },
] as ScriptStep[]

describe('one step numbering, from the server to every reader', () => {
  it('numbers the steps a person counts, leaves the picture before asking unnumbered, and names the rejected step by that number', async () => {
    const { engine, audit } = boot()
    const { taskId } = await engine.start({ goal: 'order', clientId: 'c1', script }, source)
    await runUntilStill(engine, taskId)

    const waiting = await engine.status(taskId)
    expect(waiting.task.status).toBe('WAITING_CONFIRMATION')
    expect(waiting.steps.map((s) => s.number)).toEqual([1, 2, undefined])
    expect(waiting.currentNumber).toBe(3)
    expect(waiting.task.stepCount).toBe(2)

    await engine.confirm({ taskId, actionId: waiting.pendingConfirmation!.actionId, approved: false, reason: 'not today' }, source)
    const ended = await engine.status(taskId)
    const rejected = ended.steps.find((s) => s.outcome === 'rejected')!
    expect(rejected.number).toBe(3)
    expect(rejected.target).toBe('Place order')
    expect(ended.task.stepCount).toBe(3)
    expect(ended.task.error).toMatchObject({ code: 'REJECTED', details: { step: 3, reason: 'not today' } })
    expect(ended.task.error!.message).toContain('rejected step 3')
    expect(describeError(ended.task.error!, 'en')).toBe('You rejected step 3, so the task stopped there. Nothing of that step was done.')
    expect(describeError(ended.task.error!, 'zh-CN')).toContain('第 3 步')

    // The console and replay.html read the audit, not the view: the same rows carry the same numbers.
    const replay = buildReplay(await audit.read(taskId))
    const byAction = new Map(replay.steps.map((s) => [s.actionId, s.number]))
    for (const step of ended.steps) expect(byAction.get(step.actionId)).toBe(step.number)
    expect(replay.totals.steps).toBe(ended.task.stepCount)
    // Its outcomes add up to the steps it counts: the picture before asking is neither a step nor "done".
    expect(replay.totals).toMatchObject({ steps: 3, done: 2, rejected: 1, failed: 0, confirmations: 1, approved: 0 })
    expect(replay.error).toMatchObject({ code: 'REJECTED', details: { step: 3 } })
    // Answered by the task's own browser: the person, in its side panel.
    expect(replay.steps.find((s) => s.outcome === 'rejected')!.confirmation!.answer).toMatchObject({ approved: false, inPanel: true })

    // What the person reads: the panel and the replay label the same rows 1, 2, (picture), 3.
    const panel = panelTimeline(ended, 'en')
    expect(panel.numbers).toEqual(['1', '2', null, '3'])
    expect(panel.text).toContain('“Your name”typed “Ada Lovelace”')
    expect(panel.text).not.toContain('#name')
    expect(panel.text).toContain('Your reason: not today')
    expect(panel.text).toContain('you said no')
    const page = replayPage(await audit.read(taskId), 'en')
    expect(page.numbers).toEqual(['1', '2', null, '3'])
    expect(page.text).toContain('You rejected step 3, so the task stopped there.')
    expect(page.text).toContain('Stopped: you said no')
    expect(page.text).toContain('Rejected by you, in the side panel')
    expect(page.text).not.toMatch(/Failed|REJECTED|c1 at|1 confirmations|gave up|The person rejected/)
    expect(page.text).toContain('stopped, as you chose')
    const zh = replayPage(await audit.read(taskId), 'zh-CN')
    expect(zh.text).toContain('你拒绝了第 3 步')
    expect(zh.text).toContain('页面：Shop')
    expect(zh.text).not.toContain('页面:')
    expect(panelTimeline(ended, 'zh-CN').text).toContain('输入了“Ada Lovelace”')
  })

  it('ends a finished script with a result the reader words in their language, counting the same steps the timeline shows', async () => {
    const { engine, audit } = boot()
    const { taskId } = await engine.start({ goal: 'order', clientId: 'c1', script }, source)
    await runUntilStill(engine, taskId)
    const waiting = await engine.status(taskId)
    await engine.confirm({ taskId, actionId: waiting.pendingConfirmation!.actionId, approved: true }, source)
    await runUntilStill(engine, taskId)

    const done = await engine.status(taskId)
    expect(done.task.status).toBe('SUCCEEDED')
    expect(done.steps.map((s) => s.number)).toEqual([1, 2, undefined, 3, 4])
    expect(done.task.result).toMatchObject({ text: 'Ran all 4 steps of the script.', code: 'SCRIPT_DONE', params: { n: 4 } })
    expect(describeResult(done.task.result!, 'zh-CN')).toBe('脚本的 4 步全部执行完毕。')
    expect(done.task.stepCount).toBe(4)
    expect(buildReplay(await audit.read(taskId)).result).toMatchObject({ code: 'SCRIPT_DONE', params: { n: 4 } })

    // A selector is not a name a person reads: the step takes the name the page gave it, and what was typed.
    const typed = done.steps.find((s) => s.type === 'type')!
    expect(typed.target).toBe('Your name')
    expect(typed.text).toBe('Ada Lovelace')
    const replayed = buildReplay(await audit.read(taskId)).steps.find((s) => s.type === 'type')!
    expect(replayed.target).toBe('“Your name”')
  })

  it('never puts a typed password on its step, only that one was typed', async () => {
    const { engine } = boot()
    const { taskId } = await engine.start(
      { goal: 'log in', clientId: 'c1', script: [{ type: 'type', selector: 'input[type=password]', text: 'hunter2-secret' }] as ScriptStep[] },
      source,
    )
    await runUntilStill(engine, taskId)
    const view = await engine.status(taskId)
    const step = view.steps.find((s) => s.type === 'type')
    // Either it waits for approval (credential entry is high risk) or it ran: in no state does the value show.
    expect(JSON.stringify(view)).not.toContain('hunter2-secret')
    if (step) expect(step).toMatchObject({ sensitive: true })
  })
})

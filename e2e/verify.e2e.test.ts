import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ScriptStep } from '#protocol'
import { answer, startFakeLlm, type FakeLlm, type FakeRequest } from '../test/support/fake-llm'
import { indexOf } from './support/shopper'
import { useHarness } from './support/use-harness'

/**
 * Every step checks its own effect: on /effects, controls that work end SUCCEEDED with the page showing it, and each
 * control that quietly does nothing ends the task FAILED with ACTION_NO_EFFECT, the page as it was. The verdict is
 * read from the page itself (its tab, through Playwright), never from Tandem's word.
 */

// The model's turns on the LLM task: type into a field that puts its own value back, then (having read why) stop.
const prompts: string[] = []
let llm: FakeLlm
beforeAll(async () => {
  llm = await startFakeLlm((r: FakeRequest) => {
    const user = String(r.messages.at(-1)?.content ?? '')
    prompts.push(user)
    const page = /<untrusted_page[\s\S]*?<\/untrusted_page>/.exec(user)?.[0] ?? ''
    if (prompts.length === 1) return answer([{ type: 'type', index: indexOf(page, /Locked code/), text: 'B-200' }], { next_goal: 'enter the code' })
    return answer([{ type: 'done', success: false, text: 'The code field does not take a new value.' }], { next_goal: 'report' })
  })
})
afterAll(async () => llm?.close())
const h = useHarness({ server: () => ({ env: { TANDEM_LLM_BASE_URL: llm.url, TANDEM_LLM_MODEL: 'fake-verify' } }) })

let run = 0
/** Runs a script on a fresh /effects tab; returns the task's end and that tab, to read its state. */
async function runOnEffects(script: ScriptStep[]): Promise<{ status: string; code?: string; steps: { type: string; outcome: string; errors: { code: string; effect?: { expected: string; found: string } }[] }[]; tab: Page }> {
  const url = `${h.site.url}/effects?run=${++run}`
  const taskId = await h.runScript(script, url)
  const view = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED', 'PAUSED', 'WAITING_CONFIRMATION'], 60_000)
  const tab = h.ext.context.pages().find((p) => p.url() === url)
  if (!tab) throw new Error(`no tab at ${url}: ${h.ext.context.pages().map((p) => p.url()).join(', ')}`)
  return { status: view.task.status, code: view.task.error?.code, steps: view.steps as never, tab }
}

const value = (tab: Page, selector: string) => tab.inputValue(selector)

describe('each step checks its own effect in the page', () => {
  it('sets what works, a date typed as 24/11/2026 included, and the page shows it', async () => {
    const end = await runOnEffects([
      { type: 'type', selector: '#date', text: '24/11/2026' },
      { type: 'type', selector: '#time', text: '3:30 PM' },
      { type: 'type', selector: '#guests', text: '1,000' },
      { type: 'type', selector: '#volume', text: '75' },
      { type: 'type', selector: '#phone', text: '1234567890' },
      { type: 'type', selector: '#story', text: 'Once upon a time' },
      { type: 'click', selector: '#terms' },
      { type: 'click', selector: '#large' },
      // Already chosen: done, nothing to undo.
      { type: 'click', selector: '#large' },
      { type: 'click', selector: '#tab-b' },
      { type: 'click', selector: '#wifi' },
      { type: 'select', selector: '#colour', option: 'Blue' },
      { type: 'scroll', selector: '#list', direction: 'down' },
    ] as ScriptStep[])
    expect(end.status, JSON.stringify(end.steps, null, 1)).toBe('SUCCEEDED')
    const { tab } = end
    expect(await value(tab, '#date')).toBe('2026-11-24')
    expect(await value(tab, '#time')).toBe('15:30')
    expect(await value(tab, '#guests')).toBe('1000')
    expect(await value(tab, '#volume')).toBe('75')
    expect(await value(tab, '#phone')).toBe('(123) 456-7890')
    expect(await tab.textContent('#story')).toContain('Once upon a time')
    expect(await tab.isChecked('#terms')).toBe(true)
    expect(await tab.isChecked('#large')).toBe(true)
    expect(await tab.getAttribute('#tab-b', 'aria-selected')).toBe('true')
    expect(await tab.getAttribute('#wifi', 'aria-checked')).toBe('true')
    expect(await value(tab, '#colour')).toBe('blue')
    expect(await tab.evaluate(() => document.getElementById('list')!.scrollTop)).toBeGreaterThan(0)
    await tab.close()
  })

  const cases: { name: string; script: ScriptStep[]; unchanged: (tab: Page) => Promise<void> }[] = [
    {
      name: 'a controlled input that puts its value back',
      script: [{ type: 'type', selector: '#locked', text: 'B-200' }] as ScriptStep[],
      unchanged: async (tab) => expect(await value(tab, '#locked')).toBe('A-100'),
    },
    {
      name: 'a date input given words that are no date',
      script: [{ type: 'type', selector: '#date', text: 'sometime soon' }] as ScriptStep[],
      unchanged: async (tab) => expect(await value(tab, '#date')).toBe(''),
    },
    {
      name: 'a checkbox whose click the page cancels',
      script: [{ type: 'click', selector: '#stuck' }] as ScriptStep[],
      unchanged: async (tab) => expect(await tab.isChecked('#stuck')).toBe(false),
    },
    {
      name: 'a tab that does not switch',
      script: [{ type: 'click', selector: '#tab-c' }] as ScriptStep[],
      unchanged: async (tab) => expect(await tab.getAttribute('#tab-c', 'aria-selected')).toBe('false'),
    },
    {
      name: 'a select that keeps its value',
      script: [{ type: 'select', selector: '#plan', option: 'Pro' }] as ScriptStep[],
      unchanged: async (tab) => expect(await value(tab, '#plan')).toBe('free'),
    },
    {
      name: 'an editor that swallows typing',
      script: [{ type: 'type', selector: '#frozen', text: 'More words' }] as ScriptStep[],
      unchanged: async (tab) => expect(await tab.textContent('#frozen')).toBe('Draft'),
    },
    {
      name: 'a list scrolled again at its end',
      script: [
        { type: 'scroll', selector: '#list', direction: 'down', amount: 2000 },
        { type: 'scroll', selector: '#list', direction: 'down' },
      ] as ScriptStep[],
      unchanged: async (tab) => {
        const box = await tab.evaluate(() => {
          const list = document.getElementById('list')!
          return { top: list.scrollTop, max: list.scrollHeight - list.clientHeight }
        })
        expect(Math.abs(box.top - box.max)).toBeLessThan(2)
      },
    },
  ]

  for (const c of cases) {
    it(`fails with ACTION_NO_EFFECT on ${c.name}`, async () => {
      const end = await runOnEffects(c.script)
      expect(end.status, JSON.stringify(end.steps, null, 1)).toBe('FAILED')
      expect(end.code).toBe('ACTION_NO_EFFECT')
      const failed = end.steps.find((s) => s.outcome === 'failed')!
      expect(failed.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { expected: expect.any(String), found: expect.any(String) } })
      await c.unchanged(end.tab)
      await end.tab.close()
    })
  }
})

describe('the model after a step without effect', () => {
  it('reads, in its very next prompt, that the step did nothing, expected against found', async () => {
    const url = `${h.site.url}/effects?run=llm`
    const started = await h.server.api('POST', '/api/agent/start', { goal: 'Set the locked code to B-200', clientId: h.clientId, startUrl: url })
    expect(started.status).toBe(200)
    const taskId = started.body.data.taskId as string
    await h.ext.wake()
    const view = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED', 'PAUSED'], 60_000)
    expect(view.task.status, JSON.stringify(view.steps, null, 1)).toBe('FAILED')
    const typed = view.steps.find((s) => s.type === 'type')!
    expect(typed.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { expected: '"B-200"', found: '"A-100" (unchanged)' } })
    // The prompt right after the type: what the scripted model server received.
    expect(prompts.length).toBeGreaterThanOrEqual(2)
    const next = prompts[1]!
    expect(next).toContain('Your last action had NO EFFECT (ACTION_NO_EFFECT). type: NO EFFECT, the page did not change: expected "B-200", found "A-100" (unchanged).')
    expect(next).toContain('try another way')
    expect(next).not.toContain('LOOP_DETECTED')
    const tab = h.ext.context.pages().find((p) => p.url() === url)!
    expect(await value(tab, '#locked')).toBe('A-100')
  })
})

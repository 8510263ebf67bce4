import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ScriptStep } from '#protocol'
import { answer, startFakeLlm, type FakeLlm, type FakeRequest } from '../test/support/fake-llm'
import { observationsByAction } from './support/harness'
import { indexOf } from './support/shopper'
import { openRefusedTab } from './support/refused-tab'
import { useHarness } from './support/use-harness'

// Chrome's extension API, inside the service worker's evaluate.
declare const chrome: any

const PASSCODE = 'S3cret-pass-42'

/** What the model does at each of its turns on /input, naming every element by its index in what it was shown. */
const PLAN: ((page: string) => Record<string, unknown>)[] = [
  (page) => ({ type: 'click', index: indexOf(page, /Trusted button/) }),
  (page) => ({ type: 'type', index: indexOf(page, /Nickname/), text: 'Ada Lovelace' }),
  () => ({ type: 'press', keys: 'Enter' }),
  (page) => ({ type: 'type', index: indexOf(page, /Passcode/), text: PASSCODE }),
  (page) => ({ type: 'hover', index: indexOf(page, /Products/) }),
  (page) => ({ type: 'click', index: indexOf(page, /Laptops/) }),
  (page) => ({ type: 'click', index: indexOf(page, /Inner button/) }),
  (page) => ({ type: 'drag', index: indexOf(page, />Alpha/), to: indexOf(page, />Gamma/) }),
  (page) => ({ type: 'drag', index: indexOf(page, />Three/), to: indexOf(page, />One/) }),
  (page) => ({ type: 'double_click', index: indexOf(page, /Walk the dog/) }),
  // The mouse is free again after the browser's own drag.
  (page) => ({ type: 'click', index: indexOf(page, /Trusted button/) }),
  () => ({ type: 'done', success: true, text: 'All done.' }),
]

let llm: FakeLlm
let turn = 0
const pages: string[] = []
beforeAll(async () => {
  llm = await startFakeLlm((r: FakeRequest) => {
    const user = String(r.messages.at(-1)?.content ?? '')
    const page = /<untrusted_page[\s\S]*?<\/untrusted_page>/.exec(user)?.[0] ?? ''
    pages.push(page)
    const step = PLAN[Math.min(turn++, PLAN.length - 1)]!
    return answer([step(page)], { next_goal: `turn ${turn}` })
  })
})
afterAll(async () => llm?.close())
const h = useHarness({ server: () => ({ env: { TANDEM_LLM_BASE_URL: llm.url, TANDEM_LLM_MODEL: 'fake-input' } }) })

describe('trusted input through the debugger', () => {
  it('clicks, double-clicks, types, presses, hovers and drags with input the page sees as trusted', async () => {
    const started = await h.server.api('POST', '/api/agent/start', { goal: 'Try every kind of input', clientId: h.clientId, startUrl: `${h.site.url}/input` })
    expect(started.status).toBe(200)
    const taskId = started.body.data.taskId as string
    await h.ext.wake()
    for (;;) {
      const view = await h.waitFor(taskId, ['WAITING_CONFIRMATION', 'SUCCEEDED', 'FAILED', 'PAUSED'], 60_000)
      if (view.task.status !== 'WAITING_CONFIRMATION') {
        expect(view.task.status, JSON.stringify({ error: view.task.error, steps: view.steps, pages: pages.slice(-2) }, null, 1)).toBe('SUCCEEDED')
        break
      }
      // Typing the passcode is credential entry: the person approves it.
      expect(view.pendingConfirmation!.action.type).toBe('type')
      await h.confirm(taskId, true)
    }

    // The page's own verdict: every event it handled was trusted.
    const hits = h.site.hits
    if (process.env.INPUT_DEBUG) console.log(JSON.stringify({ hits, steps: (await h.status(taskId)).steps.map((s) => [s.type, s.outcome, s.errors]), pages: pages.slice(4, 7) }, null, 1))
    expect(hits.filter((w) => w === 'click:true')).toHaveLength(2)
    expect(hits).toContain('input:true')
    expect(hits).toContain('nick:Ada Lovelace')
    expect(hits).toContain('keydown-Enter:true')
    expect(hits).toContain('code-input:true')
    expect(hits).toContain(`code-length:${PASSCODE.length}`)
    // The menu opens only under a real pointer (CSS :hover): its item could be clicked, by a trusted click.
    expect(hits).toContain('laptops:true')
    // A same-origin frame's button, hit at the frame's offset.
    expect(hits).toContain('frame-click:true')
    // The lists' final order, as the page reports it.
    expect(hits).toContain('pointer-order:Beta,Gamma,Alpha:true')
    expect(hits).toContain('native-order:Three,One,Two:true')
    // A double click the browser made, counted as its second click.
    expect(hits).toContain('dblclick:2:true')
    expect(hits.filter((w) => /:false$/.test(w)), hits.join('\n')).toEqual([])

    // The steps say they used the debugger's input.
    const events = await h.audit(taskId)
    const observed = observationsByAction(events)
    const proposed = events.filter((e) => e.type === 'action.proposed')
    const inputOf = (type: string) =>
      proposed.filter((e) => (e.data as { action?: { type?: string } }).action?.type === type).map((e) => observed.get(e.actionId!)?.at(-1)?.data.input)
    expect(inputOf('click')).toEqual(['cdp', 'cdp', 'cdp', 'cdp'])
    expect(inputOf('type')).toEqual(['cdp', 'cdp'])
    expect(inputOf('press')).toEqual(['cdp'])
    expect(inputOf('hover')).toEqual(['cdp'])
    expect(inputOf('drag')).toEqual(['cdp', 'cdp'])
    expect(inputOf('double_click')).toEqual(['cdp'])
  })

  it('falls back to DOM events, and says so, when the person declined debugging the tab', async () => {
    h.site.reset()
    const { restore } = await openRefusedTab(h, `${h.site.url}/input`)
    const taskId = await h.runScript([
      { type: 'click', selector: '#trusted' },
      { type: 'type', selector: '#nick', text: 'Grace' },
      { type: 'hover', selector: '#menu button' },
      { type: 'double_click', selector: '#todo' },
      { type: 'observe' },
      // In the order the page lists them: Trusted 0, Nickname 1, Passcode 2, Products 3, Inner 4, Alpha 5, Beta 6, Gamma 7.
      { type: 'drag', index: 5, to: 7 },
      // One 8, Two 9, Three 10.
      { type: 'drag', index: 10, to: 8 },
    ])
    const view = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED', 'PAUSED'], 60_000)
    expect(view.task.status, JSON.stringify(view.steps, null, 1)).toBe('SUCCEEDED')
    const hits = h.site.hits
    expect(hits).toContain('click:false')
    expect(hits).toContain('input:false')
    expect(hits).toContain('nick:Grace')
    expect(hits).toContain('pointer-order:Beta,Gamma,Alpha:false')
    expect(hits).toContain('native-order:Three,One,Two:false')
    expect(hits).toContain('dblclick:2:false')
    expect(hits.filter((w) => /:true$/.test(w)), hits.join('\n')).toEqual([])
    const observed = observationsByAction(await h.audit(taskId))
    const inputs = view.steps.filter((s) => ['click', 'type', 'hover', 'double_click', 'drag'].includes(s.type)).map((s) => observed.get(s.actionId)?.at(-1)?.data.input)
    expect(inputs).toEqual(['dom', 'dom', 'dom', 'dom', 'dom', 'dom'])
    await restore()
  })

  it('drops onto the trash unasked where the page sends nothing, and asks first where the debugger is refused', async () => {
    h.site.reset()
    const drop: ScriptStep[] = [
      { type: 'observe' },
      // Alpha 5, …, Trash 11 in the order the page lists them.
      { type: 'drag', index: 5, to: 11 },
    ]
    const taskId = await h.runScript(drop, `${h.site.url}/input`)
    const view = await h.waitFor(taskId, ['WAITING_CONFIRMATION', 'SUCCEEDED', 'FAILED'], 60_000)
    // The barrier held the tab's writes and the page sent none: the drop's words alone are no question.
    expect(view.task.status, JSON.stringify(view.steps, null, 1)).toBe('SUCCEEDED')
    expect(h.site.hits).toContain('trashed:Alpha:true')

    // Without the debugger nothing could hold what a drop sends: its words ask first, and the page waits for the answer.
    h.site.reset()
    const { restore } = await openRefusedTab(h, `${h.site.url}/input`)
    try {
      const refused = await h.runScript(drop)
      const asked = await h.waitFor(refused, ['WAITING_CONFIRMATION', 'SUCCEEDED', 'FAILED'], 60_000)
      expect(asked.task.status, JSON.stringify(asked.steps, null, 1)).toBe('WAITING_CONFIRMATION')
      expect(asked.pendingConfirmation).toMatchObject({ action: { type: 'drag' }, risk: 'high' })
      expect(asked.pendingConfirmation!.reasons.join(' ')).toContain('drops onto "Trash"')
      expect(h.site.hits.filter((w) => w.startsWith('trashed'))).toEqual([])
      await h.confirm(refused, true)
      expect((await h.waitFor(refused, ['SUCCEEDED', 'FAILED'], 60_000)).task.status).toBe('SUCCEEDED')
      expect(h.site.hits.filter((w) => w.startsWith('trashed:Alpha'))).toHaveLength(1)
    } finally {
      await restore()
    }
  })

  it('holds the write a reorder sends (the list saving its order) until the person lets it go', async () => {
    h.site.reset()
    const taskId = await h.runScript([{ type: 'observe' }, { type: 'drag', index: 5, to: 7 }], `${h.site.url}/input?save`)
    const view = await h.waitFor(taskId, ['WAITING_CONFIRMATION', 'SUCCEEDED', 'FAILED'], 60_000)
    expect(view.task.status, JSON.stringify(view.steps, null, 1)).toBe('WAITING_CONFIRMATION')
    // The reorder itself was not asked about: the page moved the item, by trusted input, and its save is held.
    expect(h.site.hits).toContain('pointer-order:Beta,Gamma,Alpha:true')
    expect(view.pendingConfirmation!.action.type).toBe('release')
    expect(view.pendingConfirmation?.evidence?.requests?.[0]).toMatchObject({ method: 'POST', path: '/input/order' })
    expect(h.site.hits.filter((w) => w.startsWith('saved:'))).toEqual([])
    await h.confirm(taskId, true)
    expect((await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'], 60_000)).task.status).toBe('SUCCEEDED')
    expect(h.site.hits).toContain('saved:Beta,Gamma,Alpha')
  })
})

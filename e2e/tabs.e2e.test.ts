import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answer, startFakeLlm, type FakeLlm, type FakeRequest } from '../test/support/fake-llm'
import { observationsByAction } from './support/harness'
import { indexOf, shopperEnv } from './support/shopper'
import { useHarness } from './support/use-harness'

/** The extension's own API, inside its service worker. */
declare const chrome: any

/**
 * A model that shops as a person does on a site that opens results in new tabs: it picks a result, saves it to its
 * wish list there, goes back to the results, opens the deal (window.open), closes it and reports. It reads only
 * what the extension observed: the page and the task's tabs line.
 */
function tabShopper() {
  let dealSeen = false
  let framedSteps = 0
  return (r: FakeRequest) => {
    const user = String(r.messages.at(-1)?.content ?? '')
    const page = /<untrusted_page[\s\S]*?<\/untrusted_page>/.exec(user)?.[0] ?? ''
    const title = /title="([^"]*)"/.exec(page)?.[1] ?? ''
    const tabs = /^Tabs: .*$/m.exec(user)?.[0] ?? ''
    const act = (actions: unknown[], goal: string) => answer(actions, { next_goal: goal })
    if (title === 'Framed page') {
      const notes = user.match(/^Note: .*$|A frame from [^\n]*?(listed|site)\./gm)?.join('\n') ?? ''
      const inFrame = (pattern: RegExp) => indexOf(page, new RegExp(`frame="http://localhost:\\d+"[^\\n]*${pattern.source}`))
      const last = Math.max(...[...page.matchAll(/\[(\d+)\]</g)].map((m) => Number(m[1])))
      framedSteps++
      // First a step past everything listed, where the unlisted frame's elements would be: it must be refused.
      if (framedSteps === 1) return act([{ type: 'click', index: last + 1 }], 'Try the other frame')
      if (/Noted: Leave at door 7/.test(user)) return act([{ type: 'done', success: true, text: notes }], 'Report')
      const note = page.split('\n').find((l) => /name=note/.test(l) && /frame="http:\/\/localhost/.test(l)) ?? ''
      if (!/Leave at door 7/.test(note)) return act([{ type: 'type', index: inFrame(/name=note/), text: 'Leave at door 7' }], 'Write the note')
      const send = inFrame(/Send note/)
      if (send === undefined) return act([{ type: 'done', success: false, text: 'The note form is gone and nothing says it was noted.' }], 'Give up')
      return act([{ type: 'click', index: send }], 'Send the note')
    }
    if (title === 'Kettle search' && dealSeen) return act([{ type: 'done', success: true, text: `Saved the blue kettle. ${tabs}` }], 'Report')
    if (title === 'Kettle search' && !tabs) return act([{ type: 'click', index: indexOf(page, /Blue kettle/) }], 'Open the blue kettle')
    if (title === 'Kettle search') return act([{ type: 'click', index: indexOf(page, /Today's deal/) }], 'Look at the deal')
    if (title === 'Blue kettle' && !/On your list/.test(user)) return act([{ type: 'click', index: indexOf(page, /Add to wish list/) }], 'Save it')
    if (title === 'Blue kettle') return act([{ type: 'switch_tab', tab: 1 }], 'Back to the results')
    if (title === "Today's deal") {
      dealSeen = true
      return act([{ type: 'close_tab' }], 'Close the deal')
    }
    return act([{ type: 'done', success: false, text: `unexpected page "${title}"` }], 'Give up')
  }
}

let llm: FakeLlm
beforeAll(async () => {
  llm = await startFakeLlm(tabShopper())
})
afterAll(async () => llm?.close())
const h = useHarness({ server: () => ({ env: shopperEnv(llm) }) })

const posts = (path: string) => h.site.requests.filter((r) => r.startsWith('POST ') && r.endsWith(` ${path}`))
const prompts = () => llm.requests.map((r) => String(r.messages.at(-1)?.content ?? ''))

describe('a task follows the tabs its pages open', () => {
  it('continues in the result’s new tab, holds its write there until approved, switches back, opens and closes a window', async () => {
    const started = await h.server.api('POST', '/api/agent/start', { goal: 'Wish list: the blue kettle', clientId: h.clientId, startUrl: `${h.site.url}/tabs/` })
    expect(started.status).toBe(200)
    const taskId = started.body.data.taskId as string
    await h.ext.wake()

    // The click opened the item in a new tab; the task went on there, and its write waits for the person.
    const waiting = await h.waitFor(taskId, ['WAITING_CONFIRMATION', 'SUCCEEDED', 'FAILED'], 60_000)
    expect(waiting.task.status, JSON.stringify(waiting.steps, null, 1)).toBe('WAITING_CONFIRMATION')
    expect(waiting.pendingConfirmation!.action.type).toBe('release')
    expect(waiting.pendingConfirmation!.evidence?.requests?.[0]).toMatchObject({ method: 'POST', path: '/tabs/wish' })
    expect(posts('/tabs/wish')).toEqual([])
    const origin = h.site.url.replace(/^http:\/\//, '')
    const onItem = prompts().find((p) => /title="Blue kettle"/.test(p))!
    expect(onItem).toContain(`Tabs: [1] Kettle search – ${origin}/tabs/ · [2] (current, opened by the last step) Blue kettle – ${origin}/tabs/item?id=7`)
    await h.confirm(taskId, true)

    const end = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED', 'WAITING_CONFIRMATION'], 60_000)
    expect(end.task.status, JSON.stringify({ error: end.task.error, steps: end.steps }, null, 1)).toBe('SUCCEEDED')
    // The approved write reached the site once, from the new tab.
    expect(posts('/tabs/wish')).toHaveLength(1)
    expect(end.steps.map((s) => s.type)).toEqual(['navigate', 'click', 'click', 'release', 'switch_tab', 'click', 'close_tab'])
    // window.open's tab was the task's (tab 3), closed by close_tab; the task is back on the results, tab 1.
    expect(prompts().some((p) => p.includes(`[3] (current, opened by the last step) Today's deal – ${origin}/tabs/deal`))).toBe(true)
    expect(end.task.result?.text).toBe(`Saved the blue kettle. Tabs: [1] (current) Kettle search – ${origin}/tabs/ · [2] Blue kettle – ${origin}/tabs/item?id=7`)
    expect(h.site.requests.filter((r) => r.startsWith('GET ') && r.endsWith(' /tabs/deal')).length).toBeGreaterThanOrEqual(1)

    // The task's tabs sit in one group under its name; the closed deal is gone from the browser.
    const sw = await h.ext.worker()
    const groups = await sw.evaluate(async () => {
      const all = await chrome.tabGroups.query({})
      return Promise.all(all.map(async (g: { id: number; title: string }) => ({ title: g.title, urls: (await chrome.tabs.query({ groupId: g.id })).map((t: { url: string }) => t.url) })))
    })
    expect(groups).toEqual([{ title: 'Wish list: the blue kettle', urls: [`${h.site.url}/tabs/`, `${h.site.url}/tabs/item?id=7`] }])
    const open = await sw.evaluate(async () => (await chrome.tabs.query({})).map((t: { url: string }) => t.url))
    expect(open.filter((u: string) => u.includes('/tabs/deal'))).toEqual([])
  })

  it('keeps the task’s tabs across a stopped service worker: the approval goes on, then switch_tab and close_tab by number', async () => {
    const script = [
      { type: 'click' as const, text: 'Steel kettle' },
      { type: 'click' as const, selector: '#wish' },
      { type: 'switch_tab' as const, tab: 1 },
      { type: 'close_tab' as const, tab: 2 },
    ]
    const before = posts('/tabs/wish').length
    const taskId = await h.runScript(script, `${h.site.url}/tabs/`, 'Steel kettle to the wish list')
    await h.waitFor(taskId, 'WAITING_CONFIRMATION')
    // Chrome stops an idle worker at any moment: what it knew of the task's tabs is in storage.
    await h.ext.stopWorker()
    expect(posts('/tabs/wish')).toHaveLength(before)
    await h.confirm(taskId, true)
    await h.ext.wake()
    const end = await h.waitFor(taskId, ['FAILED', 'SUCCEEDED'], 60_000)
    expect(end.task.status, JSON.stringify(end.steps, null, 1)).toBe('SUCCEEDED')
    expect(end.steps.map((s) => [s.type, s.outcome, s.url])).toEqual([
      ['navigate', 'done', `${h.site.url}/tabs/`],
      ['click', 'done', `${h.site.url}/tabs/item?id=8`],
      ['click', 'done', `${h.site.url}/tabs/item?id=8`],
      ['release', 'done', `${h.site.url}/tabs/item?id=8`],
      ['switch_tab', 'done', `${h.site.url}/tabs/`],
      ['close_tab', 'done', `${h.site.url}/tabs/`],
    ])
    expect(posts('/tabs/wish')).toHaveLength(before + 1)
    const sw = await h.ext.worker()
    const open = await sw.evaluate(async () => (await chrome.tabs.query({})).map((t: { url: string }) => t.url))
    expect(open.filter((u: string) => u.endsWith('/tabs/item?id=8'))).toEqual([])
  })

  it('a new tab for a site nobody granted is stopped before anything reaches it, and closed; the person is asked', async () => {
    const taskId = await h.runScript([{ type: 'click', text: 'Partner kettle' }], `${h.site.url}/tabs/partner`, 'Partner kettle')
    const view = await h.waitFor(taskId, ['WAITING_USER', 'WAITING_CONFIRMATION', 'FAILED', 'SUCCEEDED'], 30_000)
    const click = view.steps.find((s) => s.type === 'click')!
    expect(click.errors[0]).toMatchObject({ code: 'PERMISSION_DENIED' })
    expect(h.site.requests.filter((r) => r.includes(' shop.test:'))).toEqual([])
    const sw = await h.ext.worker()
    await expect
      .poll(async () => (await sw.evaluate(async () => (await chrome.tabs.query({})).map((t: { url: string; pendingUrl?: string }) => t.pendingUrl || t.url))).filter((u: string) => u.includes('shop.test')))
      .toEqual([])
    // The site is the person's to allow (the side panel asks): the task waits for them.
    expect(view.task.status, JSON.stringify(view.steps, null, 1)).toBe('WAITING_USER')
    await h.server.api('POST', '/api/agent/cancel', { taskId })
  })

  it('fills and sends a form inside a granted cross-origin frame; an ungranted frame is never read, and a step aimed past the page is refused', async () => {
    const started = await h.server.api('POST', '/api/agent/start', { goal: 'Leave a delivery note', clientId: h.clientId, startUrl: `${h.site.url}/tabs/framed` })
    const taskId = started.body.data.taskId as string
    await h.ext.wake()
    const port = new URL(h.site.url).port
    const notes = () => h.site.hits.filter((x) => x.startsWith('frame-note'))
    let end = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED', 'WAITING_CONFIRMATION'], 60_000)
    // Sending the form is approved by the person first: nothing reached the frame's site before.
    let approvals = 0
    for (; end.task.status === 'WAITING_CONFIRMATION' && approvals < 3; approvals++) {
      expect(notes()).toEqual([])
      // The click ran in the frame; its post, held in the frame's own session, is the question.
      expect(end.pendingConfirmation!.action).toMatchObject({ type: 'release', params: { requests: [{ method: 'POST', path: '/tabs/frame-note' }] } })
      await h.confirm(taskId, true)
      end = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED', 'WAITING_CONFIRMATION'], 60_000)
    }
    expect(end.task.status, `${end.task.error?.message}\n${prompts().slice(-2).join('\n=====\n')}`).toBe('SUCCEEDED')
    expect(approvals).toBe(1)
    // The frame's post reached the frame's own site once, with what the model typed.
    expect(notes()).toEqual([`frame-note localhost:${port} Leave at door 7`])
    expect(h.site.requests.filter((r) => r.startsWith('POST ') && r.endsWith(' /tabs/frame-note'))).toEqual([`POST localhost:${port} /tabs/frame-note`])
    // The step aimed past the listed elements failed; the typing and the send ran in the frame, and the post the
    // send held went once the person let it.
    const steps = end.steps.filter((s) => s.type !== 'navigate')
    expect(steps.map((s) => [s.type, s.outcome])).toEqual([
      ['click', 'failed'],
      ['type', 'done'],
      ['click', 'done'],
      ['release', 'done'],
    ])
    expect(steps[0]!.errors?.[0]?.code).toBe('TARGET_NOT_FOUND')
    // The steps in the frame kept their evidence: the frame's fields were masked with the page's, and the shot taken.
    for (const step of steps.slice(1, 3)) expect(step.artifacts?.map((a) => a.label), JSON.stringify(step)).toEqual(['before', 'after'])
    // Trusted input reaches the page's own frame only: the steps in the cross-origin frame used DOM events.
    const events = await h.audit(taskId)
    const observed = observationsByAction(events)
    const inFrame = events.filter((e) => e.type === 'action.proposed' && ['type', 'click'].includes((e.data as { action?: { type?: string } }).action?.type ?? ''))
    expect(inFrame.slice(1).map((e) => observed.get(e.actionId!)?.at(-1)?.data.input)).toEqual(['dom', 'dom'])
    // The model saw the granted frame's form, marked as in its frame, and never the ungranted one's.
    const shown = prompts().filter((p) => /title="Framed page"/.test(p))
    expect(shown[0]).toMatch(new RegExp(`^\\[\\d+\\]<input frame="http://localhost:${port}" [^\\n]*name=note`, 'm'))
    const sendLines = (p: string) => (/<untrusted_page[\s\S]*?<\/untrusted_page>/.exec(p)?.[0] ?? '').split('\n').filter((l) => /Send note/.test(l))
    expect(sendLines(shown[0]!)).toEqual([expect.stringMatching(new RegExp(`^\\[\\d+\\]<button frame="http://localhost:${port}" type=submit>Send note$`))])
    for (const p of shown) {
      expect(sendLines(p).length).toBeLessThanOrEqual(1)
      expect(p).not.toContain(`frame="http://shop.test`)
    }
    expect(end.task.result?.text).toContain(`A frame from http://shop.test:${port} was not read: the person has not granted that site.`)
    expect(end.task.result?.text).not.toContain(`http://localhost:${port}`)
  })
})

import { describe, expect, it } from 'vitest'
import type { AuditEvent, StatusView } from '#protocol'
import { useHarness } from './support/use-harness'

/**
 * A script's steps follow one another without waiting out the page's handlers; a write those handlers send a
 * moment later (a debounced save) is still held for the person, whichever step is running when it leaves.
 */
const h = useHarness({ resetSite: true })

const posts = (path: string) => h.site.requests.filter((r) => r.startsWith('POST ') && r.endsWith(` ${path}`))
const draft = () => `${h.site.url}/drafts/autosave`
const taskPage = async () => {
  await h.ext.pageWith('/drafts/autosave')
  return h.ext.context.pages().findLast((p) => p.url().includes('/drafts/autosave'))!
}

/** Waits for a question the person has not answered yet (not one of `answered`), and answers it. */
async function approveNext(taskId: string, answered: Set<string>): Promise<StatusView> {
  let view: StatusView | undefined
  await expect
    .poll(async () => {
      view = await h.status(taskId)
      const pending = view.pendingConfirmation
      return view.task.status === 'WAITING_CONFIRMATION' && !!pending && !answered.has(pending.actionId)
    }, { timeout: 30_000 })
    .toBe(true)
  answered.add(view!.pendingConfirmation!.actionId)
  await h.confirm(taskId, true)
  return view!
}

describe('a step’s tail: the page’s late writes are still held', () => {
  it('holds the save a typed summary sets off after the step was reported, and the next step runs once', async () => {
    const taskId = await h.runScript(
      [
        { type: 'type', selector: '#summary', text: 'Q3 plan' },
        { type: 'click', selector: '#preview' },
      ],
      draft(),
    )
    const view = await h.waitFor(taskId, ['WAITING_CONFIRMATION', 'SUCCEEDED', 'FAILED'])
    expect(view.task.status, JSON.stringify(view.steps)).toBe('WAITING_CONFIRMATION')
    expect(view.pendingConfirmation!.evidence?.requests?.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/docs/7/summary'])
    const page = await taskPage()
    // Held in the browser: the site has not heard of it, and the page is still waiting for its answer.
    expect(posts('/api/docs/7/summary')).toEqual([])
    expect(await page.locator('#saved').textContent()).toBe('Not saved')
    await h.confirm(taskId, true)
    const end = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'])
    expect(end.task.status, JSON.stringify(end.steps)).toBe('SUCCEEDED')
    expect(posts('/api/docs/7/summary')).toHaveLength(1)
    await expect.poll(() => page.locator('#saved').textContent()).toBe('Saved')
    // The preview was clicked exactly once, whichever step heard the save.
    expect(await page.locator('#clicks').textContent()).toBe('1')
    expect(await page.locator('#shown').textContent()).toBe('Preview: Q3 plan')
  })

  it('names the typing as the step that sent it when the save leaves while the person decides something else', async () => {
    const taskId = await h.runScript(
      [
        { type: 'type', selector: '#summary', text: 'Q3 plan' },
        // Asked first in its script's own words, so the save leaves while the person reads that card.
        { type: 'click', text: 'Publish', risk: 'high' },
      ],
      draft(),
    )
    const answered = new Set<string>()
    const publish = await h.waitFor(taskId, 'WAITING_CONFIRMATION')
    expect(publish.pendingConfirmation!.action).toMatchObject({ type: 'click' })
    const page = await taskPage()
    // The save's timer has long gone off while the person reads the card: it is held, not sent.
    await page.waitForTimeout(800)
    expect(posts('/api/docs/7/summary')).toEqual([])
    expect(await page.locator('#saved').textContent()).toBe('Not saved')
    answered.add(publish.pendingConfirmation!.actionId)
    await h.confirm(taskId, true)

    // Before the approved click runs, the person hears of the save, named as the typing's.
    const save = await approveNext(taskId, answered)
    const typed = publish.steps.find((s) => s.type === 'type')!
    expect(save.pendingConfirmation!.action).toMatchObject({ type: 'release', params: { after: typed.actionId } })
    expect(save.pendingConfirmation!.evidence?.requests?.map((r) => r.path)).toEqual(['/api/docs/7/summary'])
    expect(posts('/api/drafts/7/publish')).toEqual([])

    // Then the click that waited is asked about again and runs.
    await approveNext(taskId, answered)
    const end = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'])
    expect(end.task.status, JSON.stringify(end.steps)).toBe('SUCCEEDED')
    const order = h.site.requests.filter((r) => r.startsWith('POST ')).map((r) => r.split(' ').at(-1))
    expect(order).toEqual(['/api/docs/7/summary', '/api/drafts/7/publish'])
    await expect.poll(() => page.locator('#shown').textContent()).toBe('Published')
    const events: AuditEvent[] = await h.audit(taskId)
    expect(events.filter((e) => e.type === 'write.held').map((e) => e.actionId)).toEqual([typed.actionId])
  })
})

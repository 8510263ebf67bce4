import { describe, expect, it } from 'vitest'
import type { AuditEvent } from '#protocol'
import { useHarness } from './support/use-harness'

/** The extension's own API, inside its service worker. */
declare const chrome: any

const h = useHarness({ resetSite: true })

const posts = (path: string) => h.site.requests.filter((r) => r.startsWith('POST ') && r.endsWith(` ${path}`))
const typesOf = (events: AuditEvent[]) => events.map((e) => e.type)
/** The task's own tab: the newest one on the drafts page. */
const pageOf = async () => {
  await h.ext.pageWith('/drafts')
  return h.ext.context.pages().findLast((p) => p.url().includes('/drafts'))!
}

describe('the write barrier: what a step sends, not what its button says', () => {
  it('holds a write a harmless-looking element sends, and a rejection keeps it from the site', async () => {
    const taskId = await h.runScript([{ type: 'click', selector: '#tidy' }], `${h.site.url}/drafts`)
    const view = await h.waitFor(taskId, 'WAITING_CONFIRMATION')
    const pending = view.pendingConfirmation!
    expect(pending.action.type).toBe('release')
    expect(pending.evidence?.requests?.[0]).toMatchObject({ method: 'POST', path: '/api/drafts/7/delete' })
    // The script named it by selector; the card names it as the page does.
    expect(pending.evidence?.targetText).toBe('Tidy up')
    expect(pending.evidence?.screenshot?.label).toBe('after')
    // The page is waiting on its request: nothing reached the site.
    expect(posts('/api/drafts/7/delete')).toEqual([])
    await h.confirm(taskId, false, 'not this one')
    const end = await h.waitFor(taskId, ['FAILED', 'SUCCEEDED'])
    expect(end.task.status).toBe('FAILED')
    const page = await pageOf()
    await expect.poll(() => page.locator('#state').textContent()).toBe('Not sent')
    expect(posts('/api/drafts/7/delete')).toEqual([])
    const types = typesOf(await h.audit(taskId))
    expect(types).toContain('write.held')
    expect(types).toContain('write.refused')
    expect(types).not.toContain('write.released')
  })

  it('lets the very same request go on once approved, with no second click', async () => {
    const taskId = await h.runScript([{ type: 'click', selector: '#tidy' }], `${h.site.url}/drafts`)
    await h.confirm(taskId, true)
    const end = await h.waitFor(taskId, ['FAILED', 'SUCCEEDED'])
    expect(end.task.status, JSON.stringify(end.steps, null, 1)).toBe('SUCCEEDED')
    expect(posts('/api/drafts/7/delete')).toHaveLength(1)
    const page = await pageOf()
    await expect.poll(() => page.locator('#state').textContent()).toBe('Tidied')
    expect(await page.locator('#clicks').textContent()).toBe('1')
    const events = await h.audit(taskId)
    expect(typesOf(events)).toContain('write.released')
    expect(end.steps.map((s) => [s.type, s.outcome])).toEqual([
      ['navigate', 'done'],
      ['click', 'done'],
      ['release', 'done'],
    ])
  })

  it('holds a form a script submits, and the approved post lands where the form goes', async () => {
    const taskId = await h.runScript([{ type: 'click', selector: '#keep' }], `${h.site.url}/drafts`)
    const view = await h.waitFor(taskId, 'WAITING_CONFIRMATION')
    expect(view.pendingConfirmation?.evidence?.requests?.[0]).toMatchObject({ method: 'POST', path: '/drafts/saved', kind: 'form' })
    expect(posts('/drafts/saved')).toEqual([])
    await h.confirm(taskId, true)
    const end = await h.waitFor(taskId, ['FAILED', 'SUCCEEDED'])
    expect(end.task.status, JSON.stringify(end.steps, null, 1)).toBe('SUCCEEDED')
    expect(posts('/drafts/saved')).toHaveLength(1)
    expect(end.steps.at(-1)).toMatchObject({ type: 'release', outcome: 'done', title: 'Saved' })
  })

  it('lets a read sent by POST go, and drops third-party telemetry, asking nothing', async () => {
    const stats = h.site.deniedUrl('stats.test')
    const taskId = await h.runScript(
      [
        { type: 'click', selector: '#find' },
        { type: 'waitFor', text: 'Found' },
        { type: 'click', selector: '#more' },
        { type: 'waitFor', text: 'More shown' },
      ],
      `${h.site.url}/drafts?stats=${encodeURIComponent(stats)}`,
    )
    const end = await h.waitFor(taskId, ['FAILED', 'SUCCEEDED', 'WAITING_CONFIRMATION'])
    expect(end.task.status, JSON.stringify(end.steps, null, 1)).toBe('SUCCEEDED')
    expect(posts('/api/search')).toHaveLength(1)
    expect(h.site.requests.filter((r) => r.includes('stats.test'))).toEqual([])
    const events = await h.audit(taskId)
    expect(typesOf(events)).not.toContain('confirmation.requested')
    expect(events.filter((e) => e.type === 'write.dropped')).toMatchObject([{ data: { request: { method: 'POST', path: '/collect', kind: 'beacon' } } }])
  })

  it('without a debugger (the person canceled Chrome’s debugging bar) blocks the write, asks, and runs the step again once approved', async () => {
    const taskId = await h.runScript(
      [{ type: 'ask_user', question: 'Ready?' }, { type: 'click', selector: '#tidy' }, { type: 'waitFor', text: 'Tidied' }],
      `${h.site.url}/drafts`,
    )
    await h.waitFor(taskId, 'WAITING_USER')
    // What Chrome does when the bar is canceled: the extension is detached, and Tandem keeps off that tab.
    const tabId = (await h.ext.storage<{ tasks: Record<string, { tabId: number }> }>('tandem.executor')).tasks[taskId]!.tabId
    const sw = await h.ext.worker()
    await sw.evaluate(async (id) => {
      await chrome.debugger.detach({ tabId: id }).catch(() => undefined)
      await chrome.storage.session.set({ 'tandem.debugger.declined': [id] })
    }, tabId)
    await h.server.api('POST', '/api/agent/answer', { taskId, answer: 'yes' })
    await h.ext.wake()
    const view = await h.waitFor(taskId, 'WAITING_CONFIRMATION')
    const pending = view.pendingConfirmation!
    // The same click, asked about because of what it sent.
    expect(pending.action).toMatchObject({ type: 'click', target: { value: '#tidy' } })
    expect(pending.evidence?.requests?.[0]).toMatchObject({ method: 'POST', path: '/api/drafts/7/delete' })
    expect(pending.reasonDetails).toContainEqual(expect.objectContaining({ code: 'held-write', method: 'POST' }))
    expect(posts('/api/drafts/7/delete')).toEqual([])
    expect(typesOf(await h.audit(taskId))).toContain('write.refused')
    await h.confirm(taskId, true)
    const end = await h.waitFor(taskId, ['FAILED', 'SUCCEEDED'])
    expect(end.task.status, JSON.stringify(end.steps, null, 1)).toBe('SUCCEEDED')
    expect(posts('/api/drafts/7/delete')).toHaveLength(1)
  })

  it('keeps a held write across a stopped service worker, and the approval still sends it once', async () => {
    const taskId = await h.runScript([{ type: 'click', selector: '#tidy' }], `${h.site.url}/drafts`)
    await h.waitFor(taskId, 'WAITING_CONFIRMATION')
    // Chrome stops an idle worker at any moment; the debugger, and the request it pauses, stay.
    await h.ext.stopWorker()
    expect(posts('/api/drafts/7/delete')).toEqual([])
    await h.confirm(taskId, true)
    await h.ext.wake()
    const end = await h.waitFor(taskId, ['FAILED', 'SUCCEEDED'])
    expect(end.task.status, JSON.stringify(end.steps, null, 1)).toBe('SUCCEEDED')
    expect(posts('/api/drafts/7/delete')).toHaveLength(1)
    const page = await pageOf()
    await expect.poll(() => page.locator('#state').textContent()).toBe('Tidied')
  })
})

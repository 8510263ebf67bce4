import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AuditEvent } from '#protocol'
import { useHarness } from './support/use-harness'

/** The extension's own API, inside its service worker. */
declare const chrome: any

const h = useHarness({ resetSite: true })
const SHOTS = join('e2e', 'output')

const posts = (path: string) => h.site.requests.filter((r) => r.startsWith('POST ') && r.endsWith(` ${path}`))
const typesOf = (events: AuditEvent[]) => events.map((e) => e.type)
/** The side panel, following `taskId` as if the person had picked it, freshly loaded. */
async function panelOn(taskId: string) {
  const panel = await h.ext.openPanel()
  await panel.evaluate((id) => chrome.storage.local.set({ 'tandem.panel.task': id }), taskId)
  await panel.reload()
  await panel.getByTestId('start').waitFor()
  return panel
}

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
    // A script's `#id` cannot be matched to an observed element (ids are not observed), and a selector is no name
    // a person reads: the card names no element rather than showing `#tidy`.
    expect(pending.evidence?.targetText).toBeUndefined()
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

  it('approved with "always allow this on this site" in the panel, the same kind of write goes with no question until it is removed', async () => {
    const first = await h.runScript([{ type: 'click', selector: '#tidy' }], `${h.site.url}/drafts`)
    const pending = (await h.waitFor(first, 'WAITING_CONFIRMATION')).pendingConfirmation!
    const panel = await panelOn(first)
    const card = panel.getByTestId('confirmation')
    await expect.poll(() => card.getAttribute('data-action'), { timeout: 10_000 }).toBe(pending.actionId)
    const always = card.getByTestId('always-allow')
    expect(await always.innerText()).toContain('Always allow this on this site')
    // It says what it would let through: this request's kind, with its id as *.
    expect(await always.getByTestId('always-kinds').innerText()).toBe(`POST ${new URL(h.site.url).origin}/api/drafts/*/delete`)
    await always.locator('input[type=checkbox]').check()
    mkdirSync(SHOTS, { recursive: true })
    writeFileSync(join(SHOTS, 'panel-always-allow.png'), await card.screenshot())
    await card.getByRole('button', { name: 'Approve' }).click()
    const firstEnd = await h.waitFor(first, ['FAILED', 'SUCCEEDED'])
    expect(firstEnd.task.status, JSON.stringify(firstEnd.steps, null, 1)).toBe('SUCCEEDED')
    expect(posts('/api/drafts/7/delete')).toHaveLength(1)
    expect((await h.audit(first)).find((e) => e.type === 'confirmation.answered')?.data).toMatchObject({ approved: true, always: true })
    const list = panel.getByTestId('allowed-writes')
    await expect.poll(() => list.locator('summary').innerText(), { timeout: 10_000 }).toBe('Allowed on sites (1)')

    // The same click in another task: the page's write reaches the site, and nobody is asked.
    const second = await h.runScript([{ type: 'click', selector: '#tidy' }, { type: 'waitFor', text: 'Tidied' }], `${h.site.url}/drafts`)
    const secondEnd = await h.waitFor(second, ['FAILED', 'SUCCEEDED', 'WAITING_CONFIRMATION'])
    expect(secondEnd.task.status, JSON.stringify(secondEnd.steps, null, 1)).toBe('SUCCEEDED')
    expect(posts('/api/drafts/7/delete')).toHaveLength(2)
    const secondEvents = await h.audit(second)
    expect(typesOf(secondEvents)).not.toContain('confirmation.requested')
    expect(typesOf(secondEvents)).not.toContain('write.held')
    expect(secondEvents.filter((e) => e.type === 'write.allowed')).toMatchObject([{ data: { request: { method: 'POST', path: '/api/drafts/7/delete' } } }])

    // Removed in the panel, the question is back.
    await list.locator('summary').click()
    const rule = list.getByTestId('allowed-rule')
    expect(await rule.innerText()).toContain(`POST ${new URL(h.site.url).origin}/api/drafts/*/delete`)
    writeFileSync(join(SHOTS, 'panel-allowed-writes.png'), await list.screenshot())
    await rule.getByRole('button', { name: 'Remove' }).click()
    await expect.poll(() => list.locator('summary').innerText(), { timeout: 10_000 }).toBe('Allowed on sites (0)')
    const third = await h.runScript([{ type: 'click', selector: '#tidy' }], `${h.site.url}/drafts`)
    const asked = await h.waitFor(third, ['WAITING_CONFIRMATION', 'FAILED', 'SUCCEEDED'])
    expect(asked.task.status).toBe('WAITING_CONFIRMATION')
    expect(asked.pendingConfirmation?.evidence?.requests?.[0]).toMatchObject({ method: 'POST', path: '/api/drafts/7/delete' })
    expect(posts('/api/drafts/7/delete')).toHaveLength(2)
    await h.confirm(third, false, 'asked again, as it should')
    await h.waitFor(third, ['FAILED', 'SUCCEEDED'])
    expect(posts('/api/drafts/7/delete')).toHaveLength(2)
  })
})

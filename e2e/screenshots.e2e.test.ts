import { unzipSync } from 'fflate'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { AuditEvent, StatusView } from '#protocol'
import { darkShare, scanPixels } from '../test/support/pixels'
import { PAINTED } from './fixtures/pages'
import { useHarness } from './support/use-harness'

// The extension as people load it (dist/chrome-mv3): no <all_urls>, no activeTab grant (nobody clicks the toolbar).
const h = useHarness()

type Shot = { label: string; name: string; contentType: string }
const shotsOf = (event: AuditEvent) => (event.type === 'observation' ? ((event.data.artifacts as Shot[] | undefined) ?? []) : [])

/** Whether the task's tab is the active tab of its window, as the browser says. */
async function isActiveTab(url: string): Promise<boolean> {
  const worker = await h.ext.worker()
  return worker.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]?.active, url)
}

/**
 * Whether the extension's debugger is attached to the tab showing `url`: a command goes through only then
 * (getTargets would say "attached" for Playwright's own connection too).
 */
async function debuggerAttached(url: string): Promise<boolean> {
  const worker = await h.ext.worker()
  return worker.evaluate(async (u) => {
    const [tab] = await chrome.tabs.query({ url: u })
    return chrome.debugger.sendCommand({ tabId: tab.id }, 'Runtime.evaluate', { expression: '1' }).then(
      () => true,
      () => false,
    )
  }, url)
}

/** Share of an image's pixels painted in the fixture page's colour. */
async function paintedShare(judge: Page, image: Buffer, contentType = 'image/png'): Promise<number> {
  const { counts, total } = await scanPixels(judge, image, { contentType, colours: { painted: [...PAINTED] }, tolerance: 30 })
  return counts.painted / total
}

describe('screenshots of a task tab in the background, in the build people load', () => {
  const painted = () => `${h.site.url}/painted`
  let taskId = ''
  let card: StatusView['pendingConfirmation'] = null
  let taskPage: Page

  it('shows the background tab’s picture on the confirmation card, and runs the approved step there', async () => {
    taskId = await h.runScript(
      [
        { type: 'ask_user', question: 'Pause so the test can bring another tab to the front' },
        { type: 'screenshot' },
        { type: 'click', text: 'Delete everything', risk: 'high' },
      ],
      painted(),
    )
    await h.waitFor(taskId, 'WAITING_USER')
    taskPage = await h.ext.pageWith('/painted')
    // The person turns to another page: the task's tab is no longer the one in front.
    const other = await h.ext.context.newPage()
    await other.goto(`${h.site.url}/arrived`)
    await other.bringToFront()
    expect(await isActiveTab(painted())).toBe(false)

    const panel = await h.ext.openPanel()
    await panel.reload()
    await other.bringToFront()
    await h.server.api('POST', '/api/agent/answer', { taskId, answer: 'go on' })
    await h.ext.wake()

    const view = await h.waitFor(taskId, 'WAITING_CONFIRMATION', 60_000)
    card = view.pendingConfirmation
    expect(await isActiveTab(painted())).toBe(false)
    expect(view.steps.flatMap((s) => s.errors.map((e) => `${s.type}: ${e.code} ${e.message}`))).toEqual([])
    expect(card!.evidence?.screenshot?.label).toBe('screenshot')
    // The debugger stays on the tab while the task works there.
    expect(await debuggerAttached(painted())).toBe(true)

    // The card in the side panel shows that picture: a real image, of the task's page.
    const confirmation = panel.getByTestId('confirmation')
    await expect.poll(() => confirmation.getAttribute('data-action'), { timeout: 15_000 }).toBe(card!.actionId)
    const img = confirmation.locator('img')
    await expect.poll(() => img.evaluate((i) => (i as HTMLImageElement).naturalWidth), { timeout: 10_000 }).toBeGreaterThan(0)
    // Cropped around the element the step clicks, outlined: the frame the person sees is painted page.
    const frame = confirmation.getByTestId('marked-shot')
    expect(await frame.getAttribute('data-view')).toBe('around')
    expect(card!.evidence?.screenshot?.mark).toBeDefined()
    expect(await paintedShare(panel, await frame.screenshot())).toBeGreaterThan(0.5)

    await confirmation.getByRole('button', { name: 'Approve' }).click()
    const done = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'], 60_000)
    expect(done.task.status, JSON.stringify(done.steps, null, 1)).toBe('SUCCEEDED')
    expect(h.site.hits).toContain('deleted')
    // Nothing brought the task's tab to the front meanwhile.
    expect(await isActiveTab(painted())).toBe(false)
    await panel.close()
  })

  it('keeps every screenshot of the background tab in the audit export, of the task’s page', async () => {
    const res = await fetch(`${h.server.url}/api/audit/${taskId}/export`, { headers: { authorization: `Bearer ${h.server.token}` } })
    expect(res.status).toBe(200)
    const zip = unzipSync(new Uint8Array(await res.arrayBuffer()))
    const events = await h.audit(taskId)
    const shots = events.flatMap(shotsOf)
    // Taken after the task's tab went to the background: the screenshot step, the card's picture of the element, and
    // the click's before and after.
    const background = shots.filter((s) => s.label !== 'observation')
    expect(background.map((s) => s.label)).toEqual(['screenshot', 'screenshot', 'before', 'after'])
    expect(background.map((s) => s.name)).toContain(card!.evidence!.screenshot!.name)
    expect(events.flatMap((e) => (e.type === 'observation' ? ((e.data.errors as { code: string }[] | undefined) ?? []) : []))).toEqual([])
    const judge = await h.ext.context.newPage()
    try {
      for (const shot of background) {
        const bytes = zip[`artifacts/${shot.name}`]
        expect(bytes, `artifacts/${shot.name} in the export`).toBeDefined()
        expect(shot.contentType).toBe('image/jpeg')
        expect(await paintedShare(judge, Buffer.from(bytes!), shot.contentType), shot.name).toBeGreaterThan(0.5)
      }
    } finally {
      await judge.close()
    }
  })

  it('covers the password field in those captures (the same region of an unmasked capture is not covered)', async () => {
    const shot = (await h.audit(taskId)).flatMap(shotsOf).find((s) => s.label === 'screenshot')!
    const box = (await taskPage.locator('#password').boundingBox())!
    const judge = await h.ext.context.newPage()
    try {
      const masked = await darkShare(judge, h.artifact(taskId, shot.name), shot.contentType, box)
      const clear = await darkShare(judge, await taskPage.screenshot({ type: 'jpeg' }), 'image/jpeg', box)
      expect(clear).toBeLessThan(0.5)
      expect(masked).toBeGreaterThan(0.95)
    } finally {
      await judge.close()
    }
  })

  it('lets go of the task’s tab once the task is over', async () => {
    await expect.poll(() => debuggerAttached(painted()), { timeout: 10_000 }).toBe(false)
  })
})

declare const chrome: any

import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { StatusView } from '#protocol'
import { CANARIES, spaced } from '../test/support/canaries'
import { findCanaries } from '../test/support/scan-outputs'
import { darkShare } from '../test/support/pixels'
import { useHarness } from './support/use-harness'

// A server that hides emails and phone numbers too: the extension learns it from each action.
const h = useHarness({ server: { env: { TANDEM_REDACT_EMAILS: '1', TANDEM_REDACT_PHONES: '1' } } })

async function approveUntilSettled(taskId: string): Promise<StatusView> {
  for (;;) {
    const view = await h.waitFor(taskId, ['WAITING_CONFIRMATION', 'WAITING_USER', 'FAILED', 'SUCCEEDED'], 60_000)
    if (view.task.status !== 'WAITING_CONFIRMATION') return view
    await h.confirm(taskId, true)
  }
}

describe('a card number, an email and a phone number on the page', () => {
  let taskId = ''
  const shares: Record<string, { masked: number; clear: number }> = {}

  it('are typed and shown, and the screenshot taken then covers each of them', async () => {
    taskId = await h.runScript(
      [
        { type: 'type', selector: '#card', text: spaced(CANARIES.cardVisa) },
        { type: 'type', selector: '#email', text: CANARIES.emailCn },
        { type: 'screenshot' },
        { type: 'ask_user', question: 'Pause so the test can look at the page' },
      ],
      `${h.site.url}/pay`,
    )
    const paused = await approveUntilSettled(taskId)
    expect(paused.task.status, JSON.stringify(paused.steps, null, 1)).toBe('WAITING_USER')

    const page = await h.ext.pageWith('/pay')
    expect(await page.locator('#card').inputValue()).toBe(spaced(CANARIES.cardVisa))
    expect(await page.locator('#email').inputValue()).toBe(CANARIES.emailCn)

    const events = await h.audit(taskId)
    const artifacts = events.flatMap((e) => (e.type === 'observation' ? ((e.data.artifacts as { label: string; name: string; contentType: string }[]) ?? []) : []))
    // The last one: typing a card number is confirmed on a picture taken before it, under the same label.
    const shot = artifacts.filter((a) => a.label === 'screenshot').at(-1)!
    expect(shot, JSON.stringify(paused.steps, null, 1)).toBeDefined()
    // A tab of the same window: its viewport, and so the scale of the captures it reads, is the task page's.
    const judge = await h.ext.context.newPage()
    const clear = await page.screenshot({ type: 'jpeg' })
    for (const id of ['card', 'email', 'mail', 'tel', 'order']) {
      const box = (await page.locator(`#${id}`).boundingBox())!
      shares[id] = {
        masked: await darkShare(judge, h.artifact(taskId, shot.name), shot.contentType, box),
        clear: await darkShare(judge, clear, 'image/jpeg', box),
      }
    }
    await judge.close()

    await h.server.api('POST', '/api/agent/answer', { taskId, answer: 'done' })
    await h.ext.wake()
    const done = await approveUntilSettled(taskId)
    expect(done.task.status, JSON.stringify(done.steps, null, 1)).toBe('SUCCEEDED')
  })

  it('covers the card field, the typed email, and the email and phone number in the text (an unmasked capture shows them)', () => {
    for (const id of ['card', 'email', 'mail', 'tel']) {
      expect(shares[id].clear, id).toBeLessThan(0.5)
      expect(shares[id].masked, id).toBeGreaterThan(0.95)
    }
  })

  it('leaves other text visible', () => {
    expect(shares.order.masked).toBeLessThan(0.5)
  })

  it('keeps all three out of the audit and the stored observation', async () => {
    expect(findCanaries(JSON.stringify(await h.audit(taskId)))).toEqual([])
    expect(findCanaries(JSON.stringify(await h.status(taskId)))).toEqual([])
    const stored = join(h.server.dataDir, 'state', 'observations')
    const files = readdirSync(stored)
    expect(files.length).toBeGreaterThan(0)
    for (const name of files) expect(findCanaries(readFileSync(join(stored, name), 'utf8')), name).toEqual([])
  })
})

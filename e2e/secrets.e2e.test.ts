import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { StatusView } from '#protocol'
import { useHarness } from './support/use-harness'
import { CANARIES } from '../test/support/canaries'
import { darkShare } from '../test/support/pixels'

const h = useHarness()

const SECRET = CANARIES.password

/** Text files under `root` (skipping screenshots) that contain the secret. */
function filesWithSecret(root: string): string[] {
  const out: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (!/\.(jpg|png|webp)$/.test(name) && readFileSync(path, 'utf8').includes(SECRET)) out.push(path)
    }
  }
  walk(root)
  return out
}

/** Approves whatever the risk gate asks (typing a credential, submitting the form) until the task stops for something else. */
async function approveUntilSettled(taskId: string): Promise<StatusView> {
  for (;;) {
    const view = await h.waitFor(taskId, ['WAITING_CONFIRMATION', 'WAITING_USER', 'FAILED', 'SUCCEEDED'], 60_000)
    if (view.task.status !== 'WAITING_CONFIRMATION') return view
    await h.confirm(taskId, true)
  }
}

describe('a typed password', () => {
  let taskId = ''
  let shown = { masked: -1, clear: -1 }

  it('is typed, shown in clear by the page, captured, and the task goes on', async () => {
    taskId = await h.runScript(
      [
        // [0] is the password field: an index lets the server see what kind of field it types into.
        { type: 'type', index: 0, text: SECRET },
        { type: 'type', selector: 'input[name=email]', text: 'ada@example.com' },
        { type: 'click', selector: '#show' },
        { type: 'screenshot' },
        { type: 'extract', instruction: 'everything on the page' },
        { type: 'ask_user', question: 'Pause so the test can look at the page' },
        { type: 'click', text: 'Continue' },
        { type: 'waitFor', text: 'Welcome' },
      ],
      `${h.site.url}/form`,
    )
    const paused = await approveUntilSettled(taskId)
    expect(paused.task.status, JSON.stringify(paused.steps, null, 1)).toBe('WAITING_USER')

    // The page really shows the password in clear now.
    const page = await h.ext.pageWith('/form')
    expect(await page.locator('#password').inputValue()).toBe(SECRET)
    expect(await page.locator('#password').getAttribute('type')).toBe('text')

    // The screenshot taken while it showed, against an unmasked capture of the same region.
    const events = await h.audit(taskId)
    const artifacts = events.flatMap((e) => (e.type === 'observation' ? ((e.data.artifacts as { label: string; name: string; contentType: string }[]) ?? []) : []))
    const shot = artifacts.find((a) => a.label === 'screenshot')!
    expect(shot, JSON.stringify(paused.steps, null, 1)).toBeDefined()
    const box = (await page.locator('#password').boundingBox())!
    // A tab of the same window: its viewport, and so the scale of the captures it reads, is the task page's.
    const judge = await h.ext.context.newPage()
    shown = {
      masked: await darkShare(judge, h.artifact(taskId, shot.name), shot.contentType, box),
      clear: await darkShare(judge, await page.screenshot({ type: 'jpeg' }), 'image/jpeg', box),
    }
    await judge.close()

    await h.server.api('POST', '/api/agent/answer', { taskId, answer: 'continue' })
    await h.ext.wake()
    const done = await approveUntilSettled(taskId)
    expect(done.task.status, JSON.stringify(done.steps, null, 1)).toBe('SUCCEEDED')
    expect(h.site.hits).toContain('signed-in:ada@example.com')
  })

  it('is covered in the screenshot (the same region of an unmasked capture is not)', () => {
    expect(shown.clear).toBeGreaterThanOrEqual(0)
    expect(shown.clear).toBeLessThan(0.5)
    expect(shown.masked).toBeGreaterThan(0.95)
  })

  it('never reaches an observation the extension reported', () => {
    const observations = join(h.server.dataDir, 'state', 'observations')
    expect(statSync(observations).isDirectory()).toBe(true)
    expect(filesWithSecret(observations)).toEqual([])
  })

  it('never appears in the audit log', () => {
    expect(filesWithSecret(join(h.server.auditDir, taskId))).toEqual([])
  })
})

import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { imageStats } from '../test/support/pixels'
import { shotsDir } from './support/shots'
import { taskPage } from './support/task-page'
import { useHarness } from './support/use-harness'

// The screenshots a reader of the docs sees: committed, so kept small (one window, not the full page).
const DOCS = shotsDir('console')
const h = useHarness({ server: { env: { TANDEM_SKILLS_DIR: resolve('skills'), TANDEM_LLM_BASE_URL: '', TANDEM_LLM_MODEL: '' } } })

/** A finished task to show: the starter skill run on the demo page, its send approved. */
async function finishedTask(): Promise<string> {
  const res = await h.server.api('POST', '/api/agent/start', {
    goal: 'Try the demo contact form',
    skill: 'demo-contact-form',
    clientId: h.clientId,
    params: { name: 'Ada Lovelace', email: 'ada@engine.test', message: 'Hello from the demo' },
  })
  const taskId = res.body.data.taskId as string
  await h.ext.wake()
  await h.confirm(taskId, true)
  const done = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'], 60_000)
  expect(done.task.status).toBe('SUCCEEDED')
  // The task shown is one whose message the demo page really sent.
  expect(await taskPage(h, done).locator('#sent').innerText()).toContain('Message sent. Thank you, Ada Lovelace!')
  return taskId
}

async function consolePage(lang: string): Promise<Page> {
  const page = await h.ext.context.newPage()
  await page.addInitScript((l) => Object.defineProperty(navigator, 'language', { get: () => l }), lang)
  await page.setViewportSize({ width: 1000, height: 720 })
  return page
}

async function shoot(page: Page, name: string) {
  const shot = await page.screenshot()
  writeFileSync(join(DOCS, name), shot)
  expect((await imageStats(page, shot, {})).distinct).toBeGreaterThan(10)
}

describe('the console, as a person meets it', () => {
  it('asks for the token in a field the browser does not take for a password, then shows the task and every skill', async () => {
    const taskId = await finishedTask()
    for (const lang of ['en', 'zh-CN']) {
      const page = await consolePage(lang)
      // The address people type leads to the console.
      await page.goto(`${h.server.url}/`)
      expect(new URL(page.url()).pathname).toBe('/console/')
      const field = page.locator('form.token-form input[name=token]')
      await field.waitFor()
      expect(await field.evaluate((i) => ({ type: (i as HTMLInputElement).type, autocomplete: i.getAttribute('autocomplete') }))).toEqual({ type: 'text', autocomplete: 'off' })
      // Chrome offers to save a password when a form with a password field is submitted: there is none.
      expect(await page.locator('input[type=password]').count()).toBe(0)
      // Still masked on screen.
      expect(await field.evaluate((i) => getComputedStyle(i).getPropertyValue('-webkit-text-security'))).toBe('disc')
      await field.fill(h.server.token)
      await field.press('Enter')
      await page.locator(`tr[data-task="${taskId}"]`).waitFor({ timeout: 10_000 })
      expect(await page.locator('input[type=password]').count()).toBe(0)

      await page.locator(`tr[data-task="${taskId}"]`).getByRole('link').click()
      await page.locator('.replay').waitFor({ timeout: 10_000 })
      await page.waitForLoadState('networkidle')
      await shoot(page, `task-${lang}.png`)

      // Every skill is listed at once, with no search typed.
      await page.goto(`${h.server.url}/console/#/skills`)
      const list = page.locator('.skill-list [data-skill]')
      await expect.poll(() => list.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(14)
      await expect.poll(() => page.locator('[data-skill="demo-contact-form"]').count()).toBe(1)
      await shoot(page, `skills-${lang}.png`)

      // A skill opens to its SKILL.md.
      await page.locator('[data-skill="demo-contact-form"] a.skill-name').click()
      expect(new URL(page.url()).hash).toBe('#/skills/demo-contact-form')
      const body = page.getByTestId('skill-body')
      await body.waitFor({ timeout: 10_000 })
      expect(await body.innerText()).toContain('Try Tandem before you set up a model')
      expect(await page.getByTestId('skill-asks').innerText()).toContain('Email / 邮箱')
      await shoot(page, `skill-${lang}.png`)
      // Forget the token so the next language starts from the token form again.
      await page.evaluate(() => localStorage.clear())
      await page.close()
    }
  })
})

import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { EXTENSION_DIR } from './support/browser'
import { startAsReadmeSays } from './support/readme-start'
import { shotsDir } from './support/shots'
import { useHarness } from './support/use-harness'

const SHOTS = shotsDir('skill-params')

// No LLM at all: the server is started with no model settings, and the shipped skills folder as it is.
const h = useHarness({ server: { env: { TANDEM_SKILLS_DIR: resolve('skills'), TANDEM_LLM_BASE_URL: '', TANDEM_LLM_MODEL: '' } } })

async function followedTask(previous: string | null): Promise<string> {
  let id: string | null = null
  await expect.poll(async () => (id = await h.ext.storage<string | null>('tandem.panel.task')), { timeout: 10_000 }).not.toBe(previous)
  return id!
}

/** The person's tab, in front, on some page of their own: the task takes it over. */
async function personTab(): Promise<Page> {
  const tab = await h.ext.context.newPage()
  await tab.goto(`${h.site.url}/shop/`)
  await tab.bringToFront()
  return tab
}

describe('the starter skill, run from the panel with no LLM configured', () => {
  it.each([
    ['en', 'contact form', 'Approve', /Fill in the demo contact form/],
    ['zh-CN', '演示 联系表单', '批准', /填写演示联系表单/],
  ])('%s: found by search, filled in, approved in the panel, sent on the demo page', async (lang, query, approveWord, skillName) => {
    const info = await h.server.api('GET', '/api/info')
    expect(JSON.stringify(info.body)).toMatch(/"llm":\s*(null|false|\{[^}]*"configured":\s*false)/)
    // The panel follows the browser's language; the person's tab is opened after it, so it is the current tab.
    const panel = await h.ext.openPanel()
    if (lang !== 'en') await panel.addInitScript((l) => Object.defineProperty(navigator, 'language', { get: () => l }), lang)
    const person = await personTab()
    await panel.reload()
    const start = panel.getByTestId('start')
    await start.waitFor()
    await expect.poll(() => start.getByTestId('current-tab').innerText(), { timeout: 10_000 }).toContain('Shop')
    await start.locator('input[name=skill]').fill(query)
    // Named in the reader's language.
    const option = start.getByTestId('skill-results').getByRole('button', { name: skillName })
    await option.click()
    const fields = start.getByTestId('skill-params')
    await fields.waitFor()
    expect(await fields.locator('input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).name))).toEqual(['param-name', 'param-email', 'param-message'])
    await fields.locator('input[name=param-name]').fill('Ada Lovelace')
    await fields.locator('input[name=param-email]').fill('ada@engine.test')
    await fields.locator('input[name=param-message]').fill('Hello from the demo')
    await start.locator('textarea[name=goal]').fill('Try the demo contact form')
    // At the side panel's usual width the fields fit: nothing scrolls sideways.
    await panel.setViewportSize({ width: 360, height: 900 })
    expect(await panel.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    writeFileSync(join(SHOTS, `panel-skill-params-${lang}.png`), await panel.screenshot())
    await panel.setViewportSize({ width: 1200, height: 800 })
    const previous = await h.ext.storage<string | null>('tandem.panel.task')
    await start.locator('button[type=submit]').click()
    const taskId = await followedTask(previous)
    expect((await h.status(taskId)).task).toMatchObject({ skill: 'demo-contact-form', mode: 'script' })

    // The send is the irreversible step: it waits for the person, who approves it in the panel.
    const waiting = await h.waitFor(taskId, 'WAITING_CONFIRMATION', 60_000)
    expect(waiting.pendingConfirmation!.action).toMatchObject({ type: 'click', risk: 'high' })
    const tab = await h.ext.pageWith('/demo/')
    // Started "in the current tab": the skill's first step, a navigate, went there and opened no tab of its own.
    expect(tab).toBe(person)
    expect(await tab.locator('#sent').isVisible()).toBe(false)
    expect(await tab.locator('#email').inputValue()).toBe('ada@engine.test')
    const card = panel.getByTestId('confirmation')
    await expect.poll(() => card.getAttribute('data-action'), { timeout: 10_000 }).toBe(waiting.pendingConfirmation!.actionId)
    await card.getByRole('button', { name: approveWord, exact: true }).click()

    const done = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED', 'CANCELED'], 60_000)
    expect(done.task.status, JSON.stringify(done.steps.map((s) => [s.type, s.outcome, s.errors]))).toBe('SUCCEEDED')
    expect(done.usage.llmCalls).toBe(0)
    expect(new URL(tab.url()).pathname).toBe('/demo/')
    expect(new URL(tab.url()).origin).toBe(h.server.url)
    expect(await tab.locator('#sent').innerText()).toContain('Message sent. Thank you, Ada Lovelace!')
    await tab.close()
    for (const p of h.ext.context.pages()) if (p.url().includes('/shop/')) await p.close()
  })
})

describe('the README’s path: start, load, connect, the demo', () => {
  it('follows the README’s own commands and steps to a sent message on the demo page', async () => {
    const readme = readFileSync('README.md', 'utf8')
    const started = await startAsReadmeSays()
    try {
      expect(started.command).toBe('npm ci && npm start')
      // The build these tests ran is the one it starts: no second build under the browser.
      expect(started.output()).toContain('The build is up to date with the sources')
      // Load: the folder the README names is the one the terminal names, and the build this browser runs.
      expect(readme).toContain('`dist/chrome-mv3`')
      expect(started.extensionDir).toBe(EXTENSION_DIR)
      // Connect: the README's server address, on the port this start was given; the token where the terminal says.
      expect(readme).toContain('`http://127.0.0.1:3000`')
      expect(new URL(started.serverUrl).hostname).toBe('127.0.0.1')
      const token = readFileSync(started.tokenFile, 'utf8').trim()
      // A panel of its own, in the browser's own language (English here).
      const panel = await h.ext.context.newPage()
      await panel.goto(`chrome-extension://${h.ext.extensionId}/sidepanel.html`)
      const form = panel.getByTestId('settings')
      if (!(await form.isVisible())) await panel.locator('summary', { hasText: 'Server settings' }).click()
      await form.locator('input[name=serverUrl]').fill(started.serverUrl)
      await form.locator('input[name=token]').fill(token)
      await form.getByRole('button', { name: 'Test connection' }).click()
      await expect.poll(() => panel.getByTestId('link').innerText(), { timeout: 10_000 }).toBe('Connected')

      // The demo, step by step as the README says: the page in a tab, a goal, the skill found by "demo", Run.
      expect(readme).toContain('`http://127.0.0.1:3000/demo/`')
      expect(new URL(started.demoUrl).origin).toBe(started.serverUrl)
      const tab = await h.ext.context.newPage()
      await tab.goto(started.demoUrl)
      await tab.bringToFront()
      await panel.reload()
      const start = panel.getByTestId('start')
      await expect.poll(() => start.getByTestId('current-tab').innerText(), { timeout: 10_000 }).toMatch(/demo/i)
      expect(readme).toContain('In **Search skills** type `demo`')
      await start.locator('textarea[name=goal]').fill('Send a question on the demo page')
      await start.locator('input[name=skill]').fill('demo')
      await start.getByTestId('skill-results').getByRole('button', { name: /Fill in the demo contact form/ }).click()
      const fields = start.getByTestId('skill-params')
      await fields.locator('input[name=param-name]').fill('Grace Hopper')
      await fields.locator('input[name=param-email]').fill('grace@navy.test')
      await fields.locator('input[name=param-message]').fill('Does the demo keep my message?')
      const previous = await h.ext.storage<string | null>('tandem.panel.task')
      await start.locator('button[type=submit]').click()
      await followedTask(previous)

      // The card before Send message, its picture marked around the button; Approve sends it.
      const card = panel.getByTestId('confirmation')
      await card.waitFor({ timeout: 60_000 })
      expect(await tab.locator('#sent').isVisible()).toBe(false)
      await card.getByTestId('marked-shot').waitFor({ timeout: 10_000 })
      expect(await card.getByTestId('what').innerText()).toBe('Click “Send message”')
      await card.getByRole('button', { name: 'Approve', exact: true }).click()
      await expect.poll(() => tab.locator('#sent').innerText().catch(() => ''), { timeout: 60_000 }).toContain('Message sent. Thank you, Grace Hopper!')
      await tab.close()
      await panel.close()
    } finally {
      await started.stop()
      await h.ext.setSettings({ serverUrl: h.server.url, token: h.server.token })
    }
  })
})

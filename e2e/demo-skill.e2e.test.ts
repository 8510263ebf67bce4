import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
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
    ['en', 'contact form', 'Approve'],
    ['zh-CN', '演示 联系表单', '批准'],
  ])('%s: found by search, filled in, approved in the panel, sent on the demo page', async (lang, query, approveWord) => {
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
    const option = start.getByTestId('skill-results').getByRole('button', { name: /Fill in the demo contact form/ })
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

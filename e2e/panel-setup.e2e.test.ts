import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { launchExtension } from './support/browser'
import { useHarness } from './support/use-harness'
import { imageStats } from '../test/support/pixels'

const SHOTS = join('e2e', 'output')

const h = useHarness()
beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true })
})

async function reopen(): Promise<Page> {
  const panel = await h.ext.openPanel()
  await panel.reload()
  await panel.getByTestId('settings').or(panel.getByTestId('start')).first().waitFor()
  return panel
}

/** The settings form, opening its section when the panel is already set up. */
async function settingsOf(panel: Page) {
  const form = panel.getByTestId('settings')
  if (!(await form.isVisible())) await panel.locator('summary', { hasText: 'Server settings' }).click()
  return form
}

describe('side panel setup and what it says when something is wrong', () => {
  it('opens on the setup form on first run, with the default server URL', async () => {
    await h.ext.setSettings({ serverUrl: 'http://127.0.0.1:3000', token: '' })
    const panel = await reopen()
    const form = panel.getByTestId('settings')
    expect(await form.innerText()).toContain('token it printed when it first started')
    expect(await form.locator('input[name=serverUrl]').inputValue()).toBe('http://127.0.0.1:3000')
    await form.locator('input[name=serverUrl]').fill(h.server.url)
    await form.locator('input[name=token]').fill(h.server.token)
    await form.getByRole('button', { name: 'Test connection' }).click()
    await expect.poll(() => panel.getByTestId('notice').innerText(), { timeout: 10_000 }).toMatch(/Connected to tandem .*No LLM/)
    expect(await panel.getByTestId('link').innerText()).toBe('Connected')
    expect(await h.ext.storage('tandem.settings')).toEqual({ serverUrl: h.server.url, token: h.server.token })
  })

  it('says clearly when the token is wrong and when the server is down', async () => {
    const panel = await reopen()
    const settings = await settingsOf(panel)
    await settings.locator('input[name=token]').fill('not-the-token')
    await settings.getByRole('button', { name: 'Test connection' }).click()
    await expect.poll(() => panel.getByTestId('notice').innerText(), { timeout: 10_000 }).toMatch(/is up but rejected the token/)
    expect(await panel.getByTestId('link').innerText()).toBe('Wrong token')
    const shot = await panel.screenshot({ fullPage: true })
    writeFileSync(join(SHOTS, 'panel-wrong-token.png'), shot)
    const stats = await imageStats(panel, shot, { red: [192, 57, 43] })
    expect(stats.shares.red).toBeGreaterThan(0.0005)
    expect(stats.distinct).toBeGreaterThan(10)

    await settings.locator('input[name=serverUrl]').fill('http://127.0.0.1:9')
    await settings.locator('input[name=token]').fill(h.server.token)
    await settings.getByRole('button', { name: 'Test connection' }).click()
    await expect.poll(() => panel.getByTestId('notice').innerText(), { timeout: 10_000 }).toMatch(/127\.0\.0\.1:9 is not reachable/)
    expect(await panel.getByTestId('link').innerText()).toBe('Server not reachable')

    await settings.locator('input[name=serverUrl]').fill(h.server.url)
    await settings.getByRole('button', { name: 'Save' }).click()
    await settings.getByRole('button', { name: 'Test connection' }).click()
    await expect.poll(() => panel.getByTestId('notice').innerText(), { timeout: 10_000 }).toMatch(/Connected to tandem/)
  })

  it('starting a goal-only task says what is missing when the server has no LLM', async () => {
    const panel = await reopen()
    const before = (await h.server.api('GET', '/api/agent/tasks')).body
    const start = panel.getByTestId('start')
    await start.locator('textarea[name=goal]').fill('look at the shop')
    await start.getByLabel('In a new tab').check()
    await start.locator('input[name=startUrl]').fill(`${h.site.url}/shop/`)
    await start.getByRole('button', { name: 'Run' }).click()
    await expect.poll(() => panel.getByTestId('notice').innerText(), { timeout: 10_000 }).toMatch(/no LLM configured.*TANDEM_LLM_BASE_URL/)
    expect((await h.server.api('GET', '/api/agent/tasks')).body).toEqual(before)
    // What was typed is still there after closing and reopening the panel.
    const again = await reopen()
    expect(await again.getByTestId('start').locator('textarea[name=goal]').inputValue()).toBe('look at the shop')
    expect(await again.getByTestId('start').locator('input[name=startUrl]').inputValue()).toBe(`${h.site.url}/shop/`)
  })

  it('speaks Chinese when the browser does', async () => {
    const panel = await h.ext.context.newPage()
    await panel.addInitScript(() => Object.defineProperty(navigator, 'language', { get: () => 'zh-CN' }))
    await panel.goto(`chrome-extension://${h.ext.extensionId}/sidepanel.html`)
    const start = panel.getByTestId('start')
    await expect.poll(() => start.innerText(), { timeout: 10_000 }).toContain('新任务')
    expect(await start.getByRole('button', { name: '运行' }).count()).toBe(1)
    expect(await panel.evaluate(() => document.documentElement.lang)).toBe('zh-CN')
    await start.locator('textarea[name=goal]').fill('')
    await start.getByRole('button', { name: '运行' }).click()
    await expect.poll(() => panel.getByTestId('notice').innerText()).toBe('请写下任务要达成的目标。')
    await start.locator('textarea[name=goal]').fill('看看这家店')
    await start.getByRole('button', { name: '运行' }).click()
    await expect.poll(() => panel.getByTestId('notice').innerText(), { timeout: 10_000 }).toMatch(/^服务器没有配置 LLM/)

    // A step its script calls high risk, asked first: the card says why in Chinese, though the server keeps its
    // reasons in English.
    const goal = '下单前先问我'
    const taskId = await h.runScript([{ type: 'click', text: 'Place order', risk: 'high' }], `${h.site.url}/shop/`, goal)
    const view = await h.waitFor(taskId, 'WAITING_CONFIRMATION', 60_000)
    expect(view.pendingConfirmation!.reasons).toEqual(['clicks "Place order", which looks like a purchase or payment'])
    const recent = panel.getByTestId('recent')
    await recent.locator('summary').click()
    await recent.getByRole('button', { name: new RegExp(goal) }).click()
    const card = panel.getByTestId('confirmation')
    await expect.poll(() => card.getAttribute('data-action'), { timeout: 10_000 }).toBe(view.pendingConfirmation!.actionId)
    expect(await card.getByTestId('reasons').innerText()).toBe('点击“Place order”，看起来像购买或付款')
    await card.getByRole('button', { name: '拒绝' }).click()
    expect((await h.waitFor(taskId, ['FAILED', 'CANCELED'])).task.status).toBe('FAILED')
    await panel.close()
  })
})

describe('side panel of a fresh install', () => {
  it('names the missing permission for a server that is not on loopback instead of calling it unreachable', async () => {
    const ext = await launchExtension()
    try {
      const panel = await ext.openPanel()
      await panel.reload()
      const form = panel.getByTestId('settings')
      const port = new URL(h.server.url).port
      await form.locator('input[name=serverUrl]').fill(`http://tandem.test:${port}`)
      await form.locator('input[name=token]').fill(h.server.token)
      await form.getByRole('button', { name: 'Save' }).click()
      await expect
        .poll(() => panel.getByTestId('notice').innerText(), { timeout: 10_000 })
        .toBe(`Tandem has no permission to reach http://tandem.test:${port}. Press Test connection and allow it when the browser asks.`)
    } finally {
      await ext.close()
    }
  })
})

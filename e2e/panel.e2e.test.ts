import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHarness, type Harness } from './support/harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness('test')
})
afterAll(async () => h?.close())

describe('side panel', () => {
  it('shows the pending confirmation with its risk and reasons, and Approve lets the task go on', async () => {
    const taskId = await h.runScript([{ type: 'click', text: 'Place order', risk: 'high' }], `${h.site.url}/shop/checkout`)
    await h.waitFor(taskId, 'WAITING_CONFIRMATION')
    const panel = await h.ext.openPanel()
    await panel.reload()
    const card = panel.getByTestId('confirmation')
    await expect.poll(() => card.innerText(), { timeout: 10_000 }).toMatch(/Risk:\s*high/)
    expect(await card.innerText()).toContain('Place order')
    await card.getByRole('button', { name: 'Approve' }).click()
    const view = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'])
    expect(view.task.status, JSON.stringify(view.steps, null, 1)).toBe('SUCCEEDED')
    expect(h.site.shop.orders).toHaveLength(1)
    const events = await h.audit(taskId)
    expect(events.find((e) => e.type === 'confirmation.answered')?.data).toMatchObject({ approved: true })
  })

  it('starting a goal-only task says what is missing when the server has no LLM', async () => {
    const panel = await h.ext.openPanel()
    const before = (await h.server.api('GET', '/api/agent/tasks')).body
    await panel.getByTestId('start').locator('textarea[name=goal]').fill('look at the shop')
    await panel.getByTestId('start').locator('input[name=startUrl]').fill(`${h.site.url}/shop/`)
    await panel.getByTestId('start').getByRole('button', { name: 'Start' }).click()
    await expect.poll(() => panel.getByTestId('notice').innerText(), { timeout: 10_000 }).toMatch(/LLM/)
    expect((await h.server.api('GET', '/api/agent/tasks')).body).toEqual(before)
  })

  it('says clearly when the token is wrong and when the server is down', async () => {
    const panel = await h.ext.openPanel()
    await panel.reload()
    await panel.locator('summary', { hasText: 'Settings' }).click()
    const settings = panel.getByTestId('settings')
    await settings.locator('input[name=token]').fill('not-the-token')
    await settings.getByRole('button', { name: 'Save' }).click()
    await settings.getByRole('button', { name: 'Test connection' }).click()
    await expect.poll(() => panel.getByTestId('notice').innerText(), { timeout: 10_000 }).toMatch(/rejected the token/)

    await settings.locator('input[name=serverUrl]').fill('http://127.0.0.1:9')
    await settings.locator('input[name=token]').fill(h.server.token)
    await settings.getByRole('button', { name: 'Save' }).click()
    await settings.getByRole('button', { name: 'Test connection' }).click()
    await expect.poll(() => panel.getByTestId('notice').innerText(), { timeout: 10_000 }).toMatch(/not reachable/)

    await settings.locator('input[name=serverUrl]').fill(h.server.url)
    await settings.getByRole('button', { name: 'Save' }).click()
    await settings.getByRole('button', { name: 'Test connection' }).click()
    await expect.poll(() => panel.getByTestId('notice').innerText(), { timeout: 10_000 }).toMatch(/Connected to tandem/)
  })
})

import type { Page } from 'playwright-core'
import { beforeEach, describe, expect, it } from 'vitest'
import { act, action, indexIn, observe, openFixture, useFixtureBrowser } from '../support/page-lib'

const env = useFixtureBrowser()
const confirmation = { approved: true as const, at: new Date(0).toISOString(), by: 'tester' }
const LOOPBACK = ['http://127.0.0.1/*']

describe('steps that would leave for a site nobody granted', () => {
  let page: Page
  let other: string
  beforeEach(async () => {
    page = await openFixture(env.browser, env.fixtures, 'leaving.html')
    other = env.fixtures.otherOrigin
  })

  const clickOn = async (text: string, fields: Parameters<typeof action>[1] = {}, sites?: string[]) => {
    const snap = await observe(page)
    return act(page, action('click', { target: { by: 'index', value: indexIn(snap.elementTree, text) }, ...fields }), sites ? { sites } : {})
  }

  it('refuses a link to another site before clicking it, naming the site, even when the person approved the step', async () => {
    for (const fields of [{}, { risk: 'high' as const, requiresConfirmation: true, confirmation }]) {
      const result = await clickOn('Terms of service', fields, LOOPBACK)
      expect(result.status).toBe('failed')
      expect(result.errors).toEqual([{ code: 'PERMISSION_DENIED', message: expect.stringContaining(other), origin: other }])
      expect(page.url()).toContain('127.0.0.1')
    }
  })

  it('refuses a form that would send its fields to another site, by Enter or by typing with submit', async () => {
    const snap = await observe(page)
    const field = indexIn(snap.elementTree, 'name=q')
    const typed = await act(page, action('type', { target: { by: 'index', value: field }, params: { text: 'ada@example.com', submit: true } }), { sites: LOOPBACK })
    expect(typed.errors[0]).toMatchObject({ code: 'PERMISSION_DENIED', origin: other })
    await page.focus('input[name=q]')
    const pressed = await act(page, action('press', { params: { keys: 'Enter' } }), { sites: LOOPBACK })
    expect(pressed.errors[0]).toMatchObject({ code: 'PERMISSION_DENIED', origin: other })
    expect((await clickOn('Search', {}, LOOPBACK)).errors[0]).toMatchObject({ code: 'PERMISSION_DENIED', origin: other })
    expect(page.url()).toContain('127.0.0.1')
  })

  it('follows links on its own site, and to any site the person granted', async () => {
    expect(await clickOn('Home', {}, LOOPBACK)).toEqual({ status: 'done', errors: [], input: 'dom' })
    await page.waitForURL(/clickable\.html/)
    for (const sites of [['http://localhost/*'], ['*://*/*'], ['<all_urls>']]) {
      await page.goto(`${env.fixtures.url('leaving.html')}`)
      await page.addScriptTag({ content: await (await import('../support/page-lib')).pageLibSource() })
      expect(await clickOn('Terms of service', {}, sites), sites[0]).toEqual({ status: 'done', errors: [], input: 'dom' })
      await page.waitForURL(/localhost.*\/away/)
    }
  })
})

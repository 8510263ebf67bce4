import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { act, action, indexIn, observe, openFixture, useFixtureBrowser, useTrustedInput } from '../support/page-lib'

const env = useFixtureBrowser()

const heard = (page: Page) => page.evaluate(() => (window as unknown as { heard: string[] }).heard)
// Labels and rows whose handlers were added with addEventListener are not in the tree: named by their words, as a
// script or a recorded skill names them.
const byText = (value: string) => ({ by: 'text' as const, value })

/** Each pointer event of a double click as Chrome fires it, with its click count and whether the browser made it. */
const doubleClickEvents = (trusted: boolean) =>
  ['mousedown:1', 'mouseup:1', 'click:1', 'mousedown:2', 'mouseup:2', 'click:2', 'dblclick:2'].map((e) => `${e}:${trusted}`)

describe('double_click', () => {
  for (const trusted of [false, true]) {
    it(`edits a TodoMVC item in place: the label's double click swaps in its .edit field (${trusted ? 'trusted input' : 'DOM events'})`, async () => {
      const page = await openFixture(env.browser, env.fixtures, 'todo-edit.html')
      if (trusted) await useTrustedInput(page)
      // The real todomvc-app-css is on the page: the editor is hidden until the item is being edited.
      expect(await page.locator('.edit').first().isVisible()).toBe(false)
      const result = await act(page, action('double_click', { target: byText('Walk the dog') }), { trusted })
      expect(result).toEqual({ status: 'done', errors: [], input: trusted ? 'cdp' : 'dom' })
      expect(await heard(page)).toEqual(doubleClickEvents(trusted))
      const edit = page.locator('li.editing .edit')
      expect(await edit.isVisible()).toBe(true)
      expect(await edit.inputValue()).toBe('Walk the dog')
      expect(await edit.evaluate((el) => el === document.activeElement)).toBe(true)

      // The next step types the new title into what opened, and Enter saves it (the barrier holds what a save sends).
      const typed = await act(page, action('type', { target: { by: 'selector', value: 'li.editing .edit' }, params: { text: 'Walk the cat', submit: true } }), { trusted, barrier: 'held' })
      expect(typed.status, JSON.stringify(typed.errors)).toBe('done')
      expect(await page.locator('.todo-list label').allTextContents()).toEqual(['Buy milk', 'Walk the cat', 'Water the plants'])
      await page.close()
    })
  }

  it('is refused unconfirmed where a click would be: on a button that places an order', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'checkout.html')
    const snap = await observe(page)
    const result = await act(page, action('double_click', { target: { by: 'index', value: indexIn(snap.elementTree, 'Place order') } }))
    expect(result.errors[0]?.code).toBe('CONFIRMATION_REQUIRED')
    await page.close()
  })
})

describe('right_click', () => {
  for (const trusted of [false, true]) {
    it(`opens the page's own context menu, and its item is then clicked (${trusted ? 'trusted input' : 'DOM events'})`, async () => {
      const page = await openFixture(env.browser, env.fixtures, 'context-menu.html')
      if (trusted) await useTrustedInput(page)
      const result = await act(page, action('right_click', { target: byText('report.pdf') }), { trusted })
      expect(result).toEqual({ status: 'done', errors: [], input: trusted ? 'cdp' : 'dom' })
      // The secondary button, and no click: a right click activates nothing.
      expect(await heard(page)).toEqual([`contextmenu:2:${trusted}`])
      expect(await page.locator('#menu').isVisible()).toBe(true)
      const share = await act(page, action('click', { target: byText('Rename') }), { trusted })
      expect(share.status, JSON.stringify(share.errors)).toBe('done')
      expect(await page.locator('#done').textContent()).toBe('rename report.pdf')
      await page.close()
    })
  }

  it('tells the planner where the page has no context menu of its own', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'context-menu.html')
    await useTrustedInput(page)
    const result = await act(page, action('right_click', { target: { by: 'selector', value: '#plain' } }), { trusted: true })
    expect(result.status).toBe('failed')
    expect(result.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', message: expect.stringContaining('no context menu of its own') })
    await page.close()
  })
})

import type { Page } from 'playwright-core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LINE, act, action, indexIn, lineFor, observe, openFixture, useFixtureBrowser } from '../support/page-lib'

// TodoMVC's row with the unmodified todomvc-app-css, listeners added from script (test/fixtures/pages/todomvc.html).
const env = useFixtureBrowser()
const CSS = 'node_modules/todomvc-app-css/index.css'

let page: Page
beforeEach(async () => {
  page = await openFixture(env.browser, env.fixtures, 'todomvc.html')
  await page.addStyleTag({ path: CSS })
})
afterEach(async () => page.close())

const todos = () => page.locator('.todo-list li').evaluateAll((lis) => lis.map((li) => `${li.querySelector('label')!.textContent}${li.classList.contains('completed') ? ' ✓' : ''}`))

describe('TodoMVC as a person sees it', () => {
  it('lists each todo\'s transparent checkbox, with its state, by the row it sits in', async () => {
    const tree = (await observe(page)).elementTree
    for (const line of tree.split('\n')) expect(line).toMatch(LINE)
    expect(lineFor(tree, 'row="Walk the dog"')).toMatch(/<input type=checkbox row="Walk the dog">$/)
    expect(lineFor(tree, 'row="Water the plants"')).toMatch(/<input type=checkbox checked row="Water the plants">$/)
    const done = await act(page, action('click', { target: { by: 'index', value: indexIn(tree, 'row="Walk the dog"') } }))
    expect(done).toMatchObject({ status: 'done', errors: [] })
    expect(await todos()).toEqual(['Buy milk', 'Walk the dog ✓', 'Call the plumber', 'Water the plants ✓'])
  })

  it('does not list a transparent checkbox that something covers', async () => {
    await page.addStyleTag({ content: '.todo-list li .view::after { content: ""; position: absolute; inset: 0; z-index: 5 }' })
    expect((await observe(page)).elementTree).not.toMatch(/type=checkbox row=/)
  })
})

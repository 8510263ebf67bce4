import { readFileSync } from 'node:fs'
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

  it('lists each todo as something to hover, and after a hover its × by its row', async () => {
    const before = (await observe(page)).elementTree
    expect(lineFor(before, 'Call the plumber')).toMatch(/<li hover>Call the plumber$/)
    expect(before).not.toContain('×')
    // A real pointer, as the debugger's hover is: the stylesheet's `li:hover .destroy` shows the ×.
    await page.hover('.todo-list li:nth-child(3)')
    const after = (await observe(page)).elementTree
    expect(lineFor(after, '×')).toMatch(/<button icon=destroy row="Call the plumber">×$/)
    expect(await act(page, action('click', { target: { by: 'index', value: indexIn(after, '×') } }))).toMatchObject({ status: 'done' })
    expect(await todos()).toEqual(['Buy milk', 'Walk the dog', 'Water the plants ✓'])
  })

  it('finds the hover rule and the rows inside a web component\'s shadow root', async () => {
    await page.evaluate((css) => {
      customElements.define('todo-card', class extends HTMLElement {
        constructor() {
          super()
          const sheet = new CSSStyleSheet()
          sheet.replaceSync(css)
          const root = this.attachShadow({ mode: 'open' })
          root.adoptedStyleSheets = [sheet]
          root.innerHTML = '<section class="todoapp"><ul class="todo-list"><li><div class="view"><input class="toggle" type="checkbox"><label>Feed the cat</label><button class="destroy"></button></div></li></ul></section>'
        }
      })
    }, readFileSync(CSS, 'utf8'))
    const tree = (await observe(page)).elementTree
    expect(lineFor(tree, 'Feed the cat')).toMatch(/<li hover>Feed the cat$/)
    expect(tree).toMatch(/<input type=checkbox row="Feed the cat">$/m)
  })
})

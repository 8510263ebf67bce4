import type { Page } from 'playwright-core'
import { beforeEach, afterEach, describe, expect, it } from 'vitest'
import { LINE, act, action, indexIn, lineFor, observe, openFixture, useFixtureBrowser } from '../support/page-lib'

// Pages built with real jQuery, jQuery UI, selectric and SortableJS (test/fixtures/pages/jquery-era.html): handlers
// delegated from containers, icons drawn by CSS, controls named only by their classes.
const env = useFixtureBrowser()

let page: Page
beforeEach(async () => {
  page = await openFixture(env.browser, env.fixtures, 'jquery-era.html')
  for (const path of ['jquery/dist/jquery.js', 'jquery-ui/dist/jquery-ui.js', 'selectric/public/jquery.selectric.js', 'sortablejs/Sortable.js']) {
    await page.addScriptTag({ path: `node_modules/${path}` })
  }
  for (const path of ['jquery-ui/dist/themes/base/jquery-ui.css', 'selectric/public/selectric.css']) await page.addStyleTag({ path: `node_modules/${path}` })
  await page.evaluate(() => (window as unknown as { setup: () => void }).setup())
})
afterEach(async () => page.close())

const status = () => page.locator('#status').textContent()
const click = (tree: string, needle: string) => act(page, action('click', { target: { by: 'index', value: indexIn(tree, needle) } }))

describe('controls with no words of their own', () => {
  it('names icons by their classes and says which row each belongs to', async () => {
    const tree = (await observe(page)).elementTree
    for (const line of tree.split('\n')) expect(line).toMatch(LINE)
    expect(tree).toContain('<span icon=delete row="Dana Whitfield Invoice #2041 overdue">')
    expect(tree).toContain('<span icon=more row="Team calendar Team offsite next Thursday">')
    expect(tree).toContain('<button icon=underline>')
    expect(tree).toContain('<span icon=remove row="budget.xlsx">')
    // The × CSS draws into an empty button is what a person sees on it.
    expect(tree).toContain('<button icon=tag-remove row="billing">×')
    // Read as a delete icon, it is held for the person's word like any deletion.
    const del = action('click', { target: { by: 'index', value: indexIn(tree, 'icon=delete row="Team calendar') } })
    expect((await act(page, del)).errors[0]?.code).toBe('CONFIRMATION_REQUIRED')
    expect(await act(page, { ...del, confirmation: { approved: true, at: new Date().toISOString(), by: 'tester' } })).toMatchObject({ status: 'done', errors: [] })
    expect(await status()).toBe('deleted Team offsite next Thursday')
  })

  it('tells a rating\'s stars apart by their place', async () => {
    const tree = (await observe(page)).elementTree
    expect(tree).toContain('<span icon="star 1/5">')
    expect(await click(tree, 'icon="star 4/5"')).toMatchObject({ status: 'done' })
    expect(await status()).toBe('rated 4')
  })
})

describe('widgets of the jQuery era', () => {
  it('lists the datepicker\'s Prev and Next (a click its markup declares) and each day once', async () => {
    await page.focus('#checkin')
    const tree = (await observe(page)).elementTree
    expect(lineFor(tree, 'Prev')).toMatch(/<a>Prev$/)
    // Each day once, its link to this page's `#` said as such, not as the page's address again.
    expect(tree.split('\n').filter((l) => />14$/.test(l))).toEqual([expect.stringMatching(/^\[\d+\]<a href="#">14$/)])
    expect(await click(tree, '<a>Next')).toMatchObject({ status: 'done' })
    expect(await page.locator('.ui-datepicker-month').textContent()).toBe('January')
  })

  it('lists selectric\'s options once its list, laid out below the wrapper that takes the pointer, is open', async () => {
    expect((await observe(page)).elementTree).not.toMatch(/<li>Express/)
    await page.click('.selectric')
    expect((await observe(page)).elementTree).toMatch(/^\[\d+\]<li>Express \(1–2 days\)$/m)
  })

  it('selects selectric\'s option through the box a person clicks, its list shown inside that box', async () => {
    const box = indexIn((await observe(page)).elementTree, 'Standard (3–5 days)')
    const picked = await act(page, action('select', { target: { by: 'index', value: box }, params: { option: 'Express (1–2 days)' } }))
    expect(picked).toMatchObject({ status: 'done', errors: [] })
    expect(await page.locator('#delivery').inputValue()).toBe('express')
  })

  it('lists the items of a jQuery UI sortable and of a SortableJS list as draggable', async () => {
    const tree = (await observe(page)).elementTree
    expect(lineFor(tree, 'Run the test suite')).toMatch(/<li draggable>Run the test suite$/)
    expect(lineFor(tree, '设计评审')).toMatch(/<li draggable>设计评审$/)
  })
})

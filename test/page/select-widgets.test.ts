import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { act, action, injectPageLib, launchChromium, serveFixtures, type FixtureServer } from '../support/page-lib'

/** Real antd 5, MUI 7, Radix, Headless UI, react-select and Element Plus widgets, built by Vite from test/fixtures/widgets. */
const SOURCES = 'test/fixtures/widgets'
const BUILT = resolve('dist/widgets')

function buildWidgets(): void {
  const newest = Math.max(...readdirSync(SOURCES).map((f) => statSync(join(SOURCES, f)).mtimeMs))
  if (existsSync(join(BUILT, 'react.html')) && statSync(join(BUILT, 'react.html')).mtimeMs > newest) return
  const vite = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '-c', `${SOURCES}/vite.config.ts`], { stdio: 'inherit' })
  if (vite.status !== 0) throw new Error('the widget pages did not build')
}

let browser: Browser
let server: FixtureServer
beforeAll(async () => {
  buildWidgets()
  ;[browser, server] = await Promise.all([launchChromium(), serveFixtures(BUILT)])
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

async function open(name: string): Promise<Page> {
  const page = await browser.newPage()
  await page.goto(server.url(name))
  await page.waitForSelector('output', { state: 'attached' })
  await injectPageLib(page)
  return page
}

const pick = (page: Page, selector: string, option: string) => act(page, action('select', { target: { by: 'selector', value: selector }, params: { option } }))
const DONE = { status: 'done', errors: [] }
const out = (page: Page, id: string) => page.locator(`#${id}-out`).textContent()

/** One `select` and its proof: the option picked through `selector`, and what the library then reports in #<out>-out. */
type Pick = { selector: string; option: string; out: string; shows: string }
const picked = (selector: string, option: string, out: string, shows = option): Pick => ({ selector, option, out, shows })

async function expectPicked(page: Page, picks: Pick[]): Promise<void> {
  for (const p of picks) {
    expect(await pick(page, p.selector, p.option)).toMatchObject(DONE)
    expect(await out(page, p.out)).toBe(p.shows)
  }
}

/** A test a row, its picks in order (a later pick may depend on where an earlier one left the widget). */
const REACT_PICKS: { name: string; picks: Pick[] }[] = [
  { name: 'antd: opens the Select through its invisible input, waits for the popup and picks the option (the library says so)', picks: [picked('#antd-city', '上海', 'antd-city')] },
  { name: 'antd: picks through the visible box a person points at, not only the hidden input', picks: [picked('[data-widget=antd-city] .ant-select-selector', '深圳', 'antd-city')] },
  { name: 'antd: a searchable Select with a virtual list of 100 is filtered by typing, never read from its 0×0 screen-reader list', picks: [picked('#antd-search', 'Item 87', 'antd-search')] },
  {
    name: 'antd: a Select that cannot be searched has its virtual list scrolled until the option is rendered',
    // Opened again, the list starts scrolled to Option 55: one far above it is found from the top.
    picks: [picked('#antd-long', 'Option 55', 'antd-long'), picked('#antd-long', 'Option 2', 'antd-long')],
  },
  { name: 'MUI: the Select (a div role=combobox) opens its portalled menu and the item is chosen', picks: [picked('#mui-age', 'Twenty', 'mui')] },
  { name: 'Radix Select', picks: [picked('#radix-fruit', 'Banana', 'radix', 'banana')] },
  { name: 'Headless UI Listbox and Combobox', picks: [picked('#hl-person', 'Devon Webb', 'hl-listbox'), picked('#hl-country', 'Canada', 'hl-combobox')] },
  { name: 'react-select', picks: [picked('#flavour', 'Strawberry', 'react-select', 'strawberry')] },
]

describe('select on real component libraries', () => {
  let page: Page
  beforeAll(async () => {
    page = await open('react.html')
  })

  // A loop rather than it.each, whose titles quote and cut long names.
  for (const { name, picks } of REACT_PICKS) {
    it(name, async () => {
      await expectPicked(page, picks)
    })
  }

  it('fails with the options it saw when none is like the one asked for', async () => {
    const result = await pick(page, '#mui-age', 'Ninety')
    expect(result.status).toBe('failed')
    expect(result.errors[0]!.code).toBe('TARGET_NOT_FOUND')
    expect(result.errors[0]!.message).toContain('"Ten", "Twenty", "Thirty"')
    await page.keyboard.press('Escape')
  })
})

describe('select on Element Plus', () => {
  it('picks from a plain and a filterable ElSelect', async () => {
    const page = await open('vue.html')
    await expectPicked(page, [picked('#el-city', '广州', 'el-city'), picked('[data-widget=el-filter] .el-select__placeholder', '上海', 'el-filter')])
    await page.close()
  })
})

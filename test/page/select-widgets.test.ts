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

describe('select on real component libraries', () => {
  let page: Page
  beforeAll(async () => {
    page = await open('react.html')
  })

  it('antd: opens the Select through its invisible input, waits for the popup and picks the option (the library says so)', async () => {
    expect(await pick(page, '#antd-city', '上海')).toMatchObject(DONE)
    expect(await out(page, 'antd-city')).toBe('上海')
  })

  it('antd: picks through the visible box a person points at, not only the hidden input', async () => {
    expect(await pick(page, '[data-widget=antd-city] .ant-select-selector', '深圳')).toMatchObject(DONE)
    expect(await out(page, 'antd-city')).toBe('深圳')
  })

  it('antd: a searchable Select with a virtual list of 100 is filtered by typing, never read from its 0×0 screen-reader list', async () => {
    expect(await pick(page, '#antd-search', 'Item 87')).toMatchObject(DONE)
    expect(await out(page, 'antd-search')).toBe('Item 87')
  })

  it('antd: a Select that cannot be searched has its virtual list scrolled until the option is rendered', async () => {
    expect(await pick(page, '#antd-long', 'Option 55')).toMatchObject(DONE)
    expect(await out(page, 'antd-long')).toBe('Option 55')
    // Opened again, the list starts scrolled to Option 55: one far above it is found from the top.
    expect(await pick(page, '#antd-long', 'Option 2')).toMatchObject(DONE)
    expect(await out(page, 'antd-long')).toBe('Option 2')
  })

  it('MUI: the Select (a div role=combobox) opens its portalled menu and the item is chosen', async () => {
    expect(await pick(page, '#mui-age', 'Twenty')).toMatchObject(DONE)
    expect(await out(page, 'mui')).toBe('Twenty')
  })

  it('Radix Select', async () => {
    expect(await pick(page, '#radix-fruit', 'Banana')).toMatchObject(DONE)
    expect(await out(page, 'radix')).toBe('banana')
  })

  it('Headless UI Listbox and Combobox', async () => {
    expect(await pick(page, '#hl-person', 'Devon Webb')).toMatchObject(DONE)
    expect(await out(page, 'hl-listbox')).toBe('Devon Webb')
    expect(await pick(page, '#hl-country', 'Canada')).toMatchObject(DONE)
    expect(await out(page, 'hl-combobox')).toBe('Canada')
  })

  it('react-select', async () => {
    expect(await pick(page, '#flavour', 'Strawberry')).toMatchObject(DONE)
    expect(await out(page, 'react-select')).toBe('strawberry')
  })

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
    expect(await pick(page, '#el-city', '广州')).toMatchObject(DONE)
    expect(await out(page, 'el-city')).toBe('广州')
    expect(await pick(page, '[data-widget=el-filter] .el-select__placeholder', '上海')).toMatchObject(DONE)
    expect(await out(page, 'el-filter')).toBe('上海')
    await page.close()
  })
})

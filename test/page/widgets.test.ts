import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { classifyRisk, redactSensitiveText } from '#protocol'
import { LINE, act, action, indexIn, observe, openFixture, useFixtureBrowser, lineFor } from '../support/page-lib'

const env = useFixtureBrowser()

const status = (page: Page) => page.locator('#status').textContent()
const DONE = { status: 'done', errors: [] }
/** widgets.html afresh for each describe: one describe's clicks never reach what another reads. */
const openWidgets = () => openFixture(env.browser, env.fixtures, 'widgets.html')

/** Each element's line in the tree, found by words only its line has, reads as given. */
function expectLines(tree: string, lines: [words: string, line: RegExp][]): void {
  for (const [words, line] of lines) expect(lineFor(tree, words), words).toMatch(line)
}

// The DOM shapes antd 5, MUI 7 and Element Plus 2 render (test/fixtures/pages/widgets.html), as the model reads them.
describe('real widgets: names and states', () => {
  let page: Page
  beforeAll(async () => {
    page = await openWidgets()
  })

  it('keeps every line in the tree format', async () => {
    const { elementTree } = await observe(page)
    for (const line of elementTree.split('\n')) expect(line).toMatch(LINE)
  })

  it('tells antd\'s two Switches apart by their form labels, with their state, and the hidden "开" never joins "关"', async () => {
    const { elementTree: tree } = await observe(page)
    const notify = lineFor(tree, '消息通知')
    const dark = lineFor(tree, '深色模式')
    expect(notify).toMatch(/<button role=switch type=button label="消息通知">关$/)
    expect(notify).not.toContain('checked')
    expect(dark).toMatch(/<button role=switch type=button checked label="深色模式">开$/)
    expect(tree).not.toContain('开关')
  })

  it('finds a switch by role and label, clicks it, and reads its new state', async () => {
    await observe(page)
    expect(await act(page, action('click', { target: { by: 'role', value: 'switch:消息通知' } }))).toMatchObject(DONE)
    expect(await page.getAttribute('#settings_notify', 'aria-checked')).toBe('true')
    expect(await page.getAttribute('#settings_dark', 'aria-checked')).toBe('true')
    expect(lineFor((await observe(page)).elementTree, '消息通知')).toMatch(/checked label="消息通知">开$/)
    await page.click('#settings_notify')
  })

  it('lets the risk rules read a switch\'s name: "删除云端备份" is not clicked unconfirmed', async () => {
    const { elements } = await observe(page)
    const wipe = elements.find((e) => e.attributes?.label === '删除云端备份')!
    expect(wipe).toMatchObject({ text: '关', role: 'switch' })
    expect(classifyRisk({ actionType: 'click', params: {}, element: wipe }).risk).toBe('high')
    expect((await act(page, action('click', { target: { by: 'index', value: wipe.index } }))).errors[0]?.code).toBe('CONFIRMATION_REQUIRED')
    expect(await page.getAttribute('#settings_wipe', 'aria-checked')).toBe('false')
  })

  it('names MUI\'s Select from aria-labelledby (its label and itself), a spinbutton with a hidden referenced hint, a slider by <label for>', async () => {
    const { elementTree: tree } = await observe(page)
    expectLines(tree, [
      ['Age', /<div role=combobox expanded=false label="Age Ten">Ten$/],
      ['role=spinbutton', /label="数量 每人限购 2 件"/],
      ['role=slider', /<div role=slider value="30">音量$/],
    ])
    // MUI's native input (aria-hidden, tabindex=-1, transparent) is not offered.
    expect(tree).not.toContain('value=10')
  })

  it('leaves display:none and aria-hidden text out of a name, keeps screen-reader-only text in it and out of what is shown', async () => {
    const { elementTree: tree } = await observe(page)
    expect(tree).not.toContain('草稿')
    expectLines(tree, [
      ['保存', /<button label="保存到云端">保存 ✓$/],
      ['帮助中心', /label="帮助中心（在新窗口打开）">帮助中心$/],
      ['全选', /<input type=checkbox checked=mixed>全选$/],
      ['>B', /<button pressed>B$/],
    ])
  })

  it('never names anything with a card number a name points at', async () => {
    const snap = await observe(page)
    expect(lineFor(snap.elementTree, '用此卡支付')).toMatch(/<div role=button label="用此卡支付">→$/)
    expect(JSON.stringify(snap)).not.toContain('5555')
  })
})

describe('real widgets: a focusable calendar panel', () => {
  let page: Page
  beforeAll(async () => {
    page = await openWidgets()
  })

  it('gives every day its own index, dated, and no line to the panel that holds them', async () => {
    const { elementTree: tree } = await observe(page)
    const days = tree.split('\n').filter((l) => /<td /.test(l))
    expect(days).toHaveLength(42)
    expect(lineFor(tree, '2024-03-05')).toMatch(/<td label="2024-03-05">5$/)
    expect(tree).not.toMatch(/一 二 三 四 五 六 日/)
  })

  it('clicks the day by its index', async () => {
    const { elementTree: tree } = await observe(page)
    const day = indexIn(tree, '2024-03-05')
    expect(await act(page, action('click', { target: { by: 'index', value: day } }))).toMatchObject(DONE)
    expect(await page.locator('#chosen-day').textContent()).toBe('2024-03-05')
  })
})

describe('real widgets: transparent comboboxes drawn by a box', () => {
  let page: Page
  beforeAll(async () => {
    page = await openWidgets()
  })

  it('lists antd\'s and Element Plus\'s combobox inputs once, as comboboxes with their state, never as a bare box', async () => {
    const { elementTree: tree } = await observe(page)
    expectLines(tree, [
      ['>城市', /<input role=combobox expanded=false placeholder="请选择城市">城市$/],
      ['常住城市', /<input role=combobox expanded=true value="上海">常住城市$/],
      ['配送城市', /<input role=combobox expanded=false placeholder="请选择城市">配送城市$/],
    ])
    expect(tree).not.toMatch(/<div[^>]*>请选择城市/)
    expect(tree.split('\n').filter((l) => l.includes('请选择城市'))).toHaveLength(2)
  })

  it('finds the combobox by what its box shows and by its label', async () => {
    await observe(page)
    // By the placeholder its box shows: antd's input is taken as a combobox (this fixture's antd popup never opens).
    await page.evaluate(() => document.getElementById('settings_city')!.addEventListener('click', () => { document.getElementById('status')!.textContent = 'antd city opened' }))
    const byShown = await act(page, action('select', { target: { by: 'text', value: '请选择城市' }, params: { option: '北京' } }))
    // The page answered the click (its status line changed), so the step is done; that 北京 is not shown is its hint.
    expect(byShown).toMatchObject({ status: 'done', unmet: { expected: expect.stringContaining('"北京" shown'), changed: ['dom'] } })
    expect(await status(page)).toBe('antd city opened')
    // `select` takes only what is a combobox: the input, not the box around it.
    const byText = await act(page, action('select', { target: { by: 'text', value: '配送城市' }, params: { option: '上海' } }))
    expect(byText).toMatchObject(DONE)
    expect(await status(page)).toBe('city 上海')
  })

  it('selects an option of Element Plus\'s Select by the index it was listed with, and shows the value after', async () => {
    const { elementTree: tree } = await observe(page)
    const city = indexIn(tree, '配送城市')
    expect(await act(page, action('select', { target: { by: 'index', value: city }, params: { option: '北京' } }))).toMatchObject(DONE)
    expect(await status(page)).toBe('city 北京')
    expect(lineFor((await observe(page)).elementTree, '配送城市')).toMatch(/<input role=combobox expanded=false value="北京">配送城市$/)
  })

  it('clicks the transparent antd combobox through its box', async () => {
    const { elementTree: tree } = await observe(page)
    await page.evaluate(() => document.getElementById('settings_city')!.addEventListener('click', () => { document.getElementById('status')!.textContent = 'antd city clicked' }))
    const city = indexIn(tree, 'placeholder="请选择城市">城市')
    expect(await act(page, action('click', { target: { by: 'index', value: city } }))).toMatchObject(DONE)
    expect(await status(page)).toBe('antd city clicked')
  })
})

describe('real widgets: links a person can click', () => {
  let page: Page
  beforeAll(async () => {
    page = await openWidgets()
  })

  it('lists a script-driven link without href, also inside a clickable card, a link boxed by its floated image, and overlay links', async () => {
    const { elementTree: tree } = await observe(page)
    expectLines(tree, [
      ['查看详情', /<a>查看详情$/],
      ['>收藏', /<a>收藏$/],
      ['/item/1', /<a href="\/item\/1">蓝牙耳机$/],
      ['/item/2', /<a href="\/item\/2">机械键盘 ¥399$/],
      ['/item/3', /无线鼠标 ¥129/],
    ])
  })

  it('clicks them', async () => {
    let tree = (await observe(page)).elementTree
    expect(await act(page, action('click', { target: { by: 'index', value: indexIn(tree, '>收藏') } }))).toMatchObject({ status: 'done' })
    expect(await status(page)).toBe('saved')
    tree = (await observe(page)).elementTree
    expect(await act(page, action('click', { target: { by: 'index', value: indexIn(tree, '查看详情') } }))).toMatchObject({ status: 'done' })
    expect(await status(page)).toBe('details')
  })
})

describe('page text', () => {
  it('leaves screen-reader-only text out and reads a chosen value once, keeps the calendar\'s days and masks the card', async () => {
    const page = await openWidgets()
    const { visibleTextSnippet: text } = await observe(page, { textLimit: 10_000 })
    expect(text).not.toContain('在新窗口打开')
    expect(text).not.toContain('到云端')
    expect(text).toContain('帮助中心')
    // antd's 0×0 screen-reader list repeats every option; only the options a person sees count.
    expect(text.match(/北京/g)).toHaveLength(1)
    // What the server sends the model goes through redactSensitiveText: the days stay, the card goes.
    const redacted = redactSensitiveText(text)
    expect(redacted).toContain('26 27 28 29 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 1 2 3 4 5 6 7')
    expect(redacted).toContain('Card on file: ••••')
    const { boxes, card, calendar } = await page.evaluate(() => {
      const unmask = (window as any).__tandemPage.maskSensitiveFields(window)
      const boxes = Array.from(document.querySelectorAll('[data-tandem-mask]'), (b) => b.getBoundingClientRect().top)
      unmask()
      const card = Array.from(document.querySelectorAll('p')).find((p) => p.textContent!.includes('Card on file'))!.getBoundingClientRect().top
      const days = document.getElementById('days')!.getBoundingClientRect()
      return { boxes, card, calendar: { top: days.top, bottom: days.bottom } }
    })
    expect(boxes.some((top) => Math.abs(top - card) < 30)).toBe(true)
    // The day numbers pass the Luhn check in runs; no box covers them.
    expect(boxes.filter((top) => top >= calendar.top - 5 && top <= calendar.bottom)).toEqual([])
  })

  it('reads the text on screen and around it when the page is scrolled, not the top of the page', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'long.html')
    const top = await observe(page, { textLimit: 1500 })
    expect(top.visibleTextSnippet).toMatch(/^A long article Section 1 /)
    await page.evaluate(() => document.getElementById('s60')!.scrollIntoView({ block: 'start' }))
    const { visibleTextSnippet: text } = await observe(page, { textLimit: 1500 })
    expect(text.length).toBeLessThanOrEqual(1500)
    expect(text).toMatch(/^…/)
    expect(text).toContain('Section 60 Paragraph 60')
    expect(text).toContain('Section 61')
    expect(text).not.toContain('Section 1 ')
    expect(text.indexOf('Section 60')).toBeLessThan(text.length / 2)
  })
})

import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { LINE, act, action, observe, openFixture, useFixtureBrowser, lineFor } from '../support/page-lib'

const env = useFixtureBrowser()

const indexOf = (line: string) => Number(/^\*?\[(\d+)\]/.exec(line)![1])

// The DOM shapes Vant 4, TDesign, Quill 2, TipTap, a CSS hover menu, a hover card and an HTML5 board render
// (test/fixtures/pages/patterns.html), as the model reads them.
describe('patterns of real pages: row labels, editors, hover, drag', () => {
  let page: Page
  let tree: string
  beforeAll(async () => {
    page = await openFixture(env.browser, env.fixtures, 'patterns.html')
    tree = (await observe(page)).elementTree
  })

  it('keeps every line in the tree format', () => {
    for (const line of tree.split('\n')) expect(line).toMatch(LINE)
  })

  it('names a Vant cell\'s switch and a TDesign form item\'s switch by the title beside them, with their state', () => {
    expect(lineFor(tree, '深色模式')).toMatch(/<div role=switch>深色模式$/)
    expect(lineFor(tree, '自动播放')).toMatch(/<div role=switch checked>自动播放$/)
    expect(lineFor(tree, '消息免打扰')).toMatch(/<button role=switch type=button>消息免打扰$/)
  })

  it('does not name a switch by a row that holds another control', () => {
    expect(tree).toMatch(/^\[\d+\]<button role=switch type=button>$/m)
    expect(tree).not.toMatch(/role=switch[^\n]*备注/)
  })

  it('lists Quill\'s and TipTap\'s editors as text boxes named by their placeholders, and types into one', async () => {
    const quill = lineFor(tree, 'Write your reply')
    expect(quill).toMatch(/<div role=textbox placeholder="Write your reply…">$/)
    expect(lineFor(tree, '写下正文')).toMatch(/<div role=textbox placeholder="写下正文…">$/)
    const typed = await act(page, action('type', { target: { by: 'index', value: indexOf(quill) }, params: { text: 'Thanks' } }))
    expect(typed).toMatchObject({ status: 'done', errors: [] })
    expect(await page.locator('#quill').textContent()).toContain('Thanks')
    tree = (await observe(page)).elementTree
  })

  it('marks a CSS hover menu\'s item, and not items whose hover rule only recolours them', () => {
    expect(lineFor(tree, '产品')).toMatch(/<li hover>产品$/)
    expect(tree).not.toContain('首页')
    expect(tree).not.toContain('只是变色')
    // The submenu stays hidden until hovered.
    expect(tree).not.toContain('企业版')
  })

  it('finds hover rules inside @media, in selector lists, and for a sibling revealed after the hovered element', () => {
    expect(lineFor(tree, '我的账户')).toMatch(/<div hover>我的账户$/)
    expect(lineFor(tree, '帮助')).toMatch(/<span hover>帮助$/)
    expect(tree).not.toContain('我的订单')
  })

  it('reads a stylesheet added after the last look', async () => {
    expect(tree).not.toContain('稍后出现')
    await page.evaluate(() => {
      document.getElementById('later')!.innerHTML = '稍后出现<b class="later-sub">更多</b>'
      document.head.append(Object.assign(document.createElement('style'), { textContent: '.later-sub{display:none} #later:hover .later-sub{display:inline}' }))
    })
    expect(lineFor((await observe(page)).elementTree, '稍后出现')).toMatch(/<div hover>稍后出现$/)
  })

  it('marks underlined words with a hover card, and after a hover the card\'s button is listed', async () => {
    const author = lineFor(tree, '林小雨')
    expect(author).toMatch(/<span hover>林小雨$/)
    expect(tree).not.toContain('关注')
    await page.hover('#author')
    expect(lineFor((await observe(page)).elementTree, '关注')).toMatch(/<button>关注$/)
    await page.mouse.move(0, 0)
  })

  it('lists draggable cards and every column they can be dropped on, the empty one named by its heading', () => {
    expect(lineFor(tree, '报销单')).toMatch(/<div draggable>报销单$/)
    expect(lineFor(tree, '合同审批')).toMatch(/<div draggable>合同审批$/)
    expect(lineFor(tree, '待处理')).toMatch(/<section dropzone>待处理$/)
    expect(lineFor(tree, '已完成')).toMatch(/<section dropzone>已完成$/)
  })
})

describe('a page without draggables or hover rules', () => {
  it('lists no drop zones or hover marks', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'widgets.html')
    const { elementTree } = await observe(page)
    expect(elementTree).not.toMatch(/ dropzone| draggable| hover/)
  })
})

import type { Page } from 'playwright-core'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { classifyRisk, type ElementInfo } from '#protocol'
import { act, action, observe, openFixture, useFixtureBrowser } from '../support/page-lib'

const env = useFixtureBrowser()

const status = (page: Page) => page.locator('#status').textContent()
const reset = (page: Page) => page.evaluate(() => { document.getElementById('status')!.textContent = 'pending' })
const clickId = (id: string) => action('click', { target: { by: 'selector', value: `#${id}` } })

describe('labels in the page: what the page library tells the risk rules', () => {
  let page: Page
  let elements: ElementInfo[]
  const element = (needle: (e: ElementInfo) => boolean) => {
    const found = elements.find(needle)
    if (!found) throw new Error(`not found in ${JSON.stringify(elements)}`)
    return found
  }
  const judge = (e: ElementInfo) => classifyRisk({ actionType: 'click', params: {}, element: e }).risk

  beforeAll(async () => {
    page = await openFixture(env.browser, env.fixtures, 'labels.html')
    elements = (await observe(page)).elements ?? []
  })
  beforeEach(() => reset(page))

  it('reads the names of icon-only buttons from antd, Font Awesome, MUI, Material, svg titles, as words', () => {
    const icons = elements.map((e) => e.attributes?.icon).filter(Boolean)
    // antd's `anticon-delete` and its svg's `data-icon=delete` are one name; so is MUI's `DeleteIcon`.
    expect(icons).toEqual(['delete', 'paper-plane', 'delete', 'send', 'trash', 'search'])
    for (const deleting of elements.filter((e) => e.attributes?.icon === 'delete')) expect(judge(deleting)).toBe('high')
    expect(judge(element((e) => e.attributes?.icon === 'paper-plane'))).toBe('high')
    expect(judge(element((e) => e.attributes?.icon === 'search'))).toBe('low')
    expect(judge(element((e) => e.text === 'send'))).toBe('high')
    expect(judge(element((e) => e.text === '🗑️'))).toBe('high')
  })

  it('carries a generic button\'s dialog text, and the widget it sits in', () => {
    const inModal = element((e) => e.text === '确 定' && !!e.context?.dialog)
    expect(inModal.context?.dialog).toMatch(/^删除草稿 删除后无法恢复/)
    expect(inModal.context?.dialog).not.toMatch(/取 消/)
    expect(judge(inModal)).toBe('high')
    expect(element((e) => e.text === '确定' && !!e.context?.dialog).context?.dialog).toBe('提示 此操作将永久删除该文件, 是否继续?')
    expect(element((e) => e.text === 'Yes').context?.dialog).toBe('Send this message? It goes to 3 people.')
    const picker = element((e) => e.text === '确 定' && e.context?.within === 'date-picker')
    expect(picker.context?.dialog).toBeUndefined()
    expect(judge(picker)).toBe('low')
    expect(judge(element((e) => e.text === 'Apply'))).not.toBe('high')
    expect(judge(element((e) => e.text === 'Reset'))).not.toBe('high')
    // Only generic words carry a context: the observation does not grow for every button.
    expect(element((e) => e.text === 'Payment & delivery').context).toBeUndefined()
  })

  it('refuses the antd delete and the modal OK unconfirmed, and leaves them untouched', async () => {
    await observe(page)
    for (const id of ['antd-delete', 'modal-ok', 'icon-antd', 'icon-fa', 'icon-mui', 'icon-material', 'icon-title', 'emoji', 'comment-go', 'el-ok', 'mui-yes']) {
      expect((await act(page, clickId(id))).errors[0]?.code, id).toBe('CONFIRMATION_REQUIRED')
    }
    expect(await status(page)).toBe('pending')
  })

  it('lets the accordion, the filter, the date picker, the search form, a javascript: link and a harmless dialog\'s OK through', async () => {
    const passes: Array<[string, string]> = [
      ['accordion', 'section opened'], ['filter-apply', 'filter applied'], ['filter-reset', 'filter reset'], ['picker-ok', 'date chosen'],
      ['search-go', 'search submitted'], ['expand', 'expanded'], ['icon-search', 'searched'], ['mui-leave', 'left'],
    ]
    for (const [id, done] of passes) {
      await observe(page)
      expect(await act(page, clickId(id)), id).toMatchObject({ status: 'done', errors: [] })
      expect(await status(page)).toBe(done)
    }
  })

  it('treats Ctrl+Enter as sending, and typing and Enter into the search field as a search', async () => {
    await observe(page)
    await page.focus('#chat')
    expect((await act(page, action('press', { params: { keys: 'Control+Enter' } }))).errors[0]?.code).toBe('CONFIRMATION_REQUIRED')
    const typed = await act(page, action('type', { target: { by: 'selector', value: '#search-field' }, params: { text: 'shoes', submit: true } }))
    expect(typed).toMatchObject({ status: 'done', errors: [] })
    expect(await status(page)).toBe('search submitted')
  })
})

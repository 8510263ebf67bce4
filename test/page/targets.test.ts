import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { act, action, observe, openFixture, useFixtureBrowser, indexIn } from '../support/page-lib'

const env = useFixtureBrowser()

describe('index targets are refused when stale', () => {
  let page: Page
  beforeAll(async () => {
    page = await openFixture(env.browser, env.fixtures, 'dynamic.html')
  })

  it('refuses an index whose element was replaced by a re-render, and does nothing', async () => {
    await page.evaluate(() => {
      document.getElementById('list')!.addEventListener('click', (e) => ((window as any).clickedItem = (e.target as Element).textContent))
    })
    const snap = await observe(page)
    const itemA = indexIn(snap.elementTree, 'Item A')
    await page.click('#rerender')
    const result = await act(page, action('click', { target: { by: 'index', value: itemA } }))
    expect(result).toEqual({ status: 'failed', errors: [{ code: 'TARGET_STALE', message: expect.stringContaining('observe the page again') }] })
    expect(await page.evaluate(() => (window as any).clickedItem)).toBeUndefined()
  })

  it('refuses an index whose node now holds different content', async () => {
    const snap = await observe(page)
    const itemA = indexIn(snap.elementTree, 'Item A')
    await page.click('#reuse')
    const result = await act(page, action('click', { target: { by: 'index', value: itemA } }))
    expect(result.errors[0]?.code).toBe('TARGET_STALE')
  })

  it('refuses when the fingerprint the server chose with differs from the one in memory', async () => {
    const snap = await observe(page)
    const bottom = snap.elements.find((e) => e.text === 'Bottom button')!
    const wrong = await act(page, action('click', { target: { by: 'index', value: bottom.index, fingerprint: 'abc123' } }))
    expect(wrong.errors[0]?.code).toBe('TARGET_STALE')
    const right = await act(page, action('click', { target: { by: 'index', value: bottom.index, fingerprint: bottom.fingerprint } }))
    expect(right).toEqual({ status: 'done', errors: [], input: 'dom' })
  })

  it('says not found for an index the last observation never had', async () => {
    await observe(page)
    const result = await act(page, action('click', { target: { by: 'index', value: 999 } }))
    expect(result.errors[0]?.code).toBe('TARGET_NOT_FOUND')
  })

  it('keeps fingerprints stable while a field is typed into', async () => {
    const form = await openFixture(env.browser, env.fixtures, 'form.html')
    const before = await observe(form)
    const name = before.elements.find((e) => e.attributes?.name === 'fullname')!
    await act(form, action('type', { target: { by: 'index', value: name.index }, params: { text: 'Ada' } }))
    const after = await observe(form, { keepPrevious: true })
    expect(after.elements.find((e) => e.attributes?.name === 'fullname')).toMatchObject({ fingerprint: name.fingerprint, attributes: { value: 'Ada' } })
    expect(after.elements.some((e) => e.isNew)).toBe(false)
    await form.close()
  })
})

describe('selector, text and role targets', () => {
  it('finds by CSS selector, visible text, label, placeholder and role + name', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'form.html')
    await act(page, action('type', { target: { by: 'text', value: 'Jane Doe' }, params: { text: 'by placeholder' } }))
    expect(await page.inputValue('input[name=fullname]')).toBe('by placeholder')
    await act(page, action('type', { target: { by: 'text', value: 'full name' }, params: { text: 'by label' } }))
    expect(await page.inputValue('input[name=fullname]')).toBe('by label')
    await act(page, action('click', { target: { by: 'role', value: 'checkbox:I have read the terms' } }))
    expect(await page.isChecked('input[name=terms]')).toBe(true)
    await act(page, action('click', { target: { by: 'role', value: 'radio:Pro' } }))
    expect(await page.isChecked('input[value=pro]')).toBe(true)
    await act(page, action('click', { target: { by: 'selector', value: 'form#search button' } }))
    expect(await page.locator('#log').textContent()).toContain('submitted search')
    await page.close()
  })

  it('prefers an exact match and the control around matching text', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'clickable.html')
    await act(page, action('click', { target: { by: 'text', value: 'Blue kettle' } }))
    expect(await page.locator('#opened').textContent()).toBe('p1')
    await page.close()
  })

  it('reports TARGET_NOT_FOUND for nothing matching and for a bad selector', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'form.html')
    for (const target of [
      { by: 'text', value: 'No such words here' },
      { by: 'role', value: 'button:Launch rockets' },
      { by: 'selector', value: '#nope' },
      { by: 'selector', value: 'div[[' },
    ] as const) {
      const result = await act(page, action('click', { target }))
      expect(result.errors[0]?.code, JSON.stringify(target)).toBe('TARGET_NOT_FOUND')
    }
    await page.close()
  })
})

describe('covered and hidden elements', () => {
  it('refuses a click on an element under a modal, naming what covers it, then works once it is gone', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'modal.html')
    const snap = await observe(page)
    const buy = indexIn(snap.elementTree, 'Add to basket')
    const refused = await act(page, action('click', { target: { by: 'index', value: buy } }))
    expect(refused.status).toBe('failed')
    expect(refused.errors[0]?.code).toBe('TARGET_NOT_INTERACTABLE')
    expect(refused.errors[0]?.message).toMatch(/covered by <div#cookie-wall\.backdrop>/)
    expect(await page.locator('#result').textContent()).toBe('')
    await act(page, action('click', { target: { by: 'text', value: 'Close' } }))
    const snap2 = await observe(page)
    expect(await act(page, action('click', { target: { by: 'index', value: indexIn(snap2.elementTree, 'Add to basket') } }))).toEqual({ status: 'done', errors: [], input: 'dom' })
    expect(await page.locator('#result').textContent()).toBe('bought')
    await page.close()
  })

  it('scrolls a link out from under a fixed header to the middle, and clicks it there', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'sticky.html')
    // The link stands in the viewport, under the 120-pixel header: in view, and covered.
    await page.evaluate(() => window.scrollTo(0, document.getElementById('story')!.getBoundingClientRect().top + window.scrollY - 60))
    const before = await page.evaluate(() => window.scrollY)
    const result = await act(page, action('click', { target: { by: 'selector', value: '#story' } }))
    expect(result, JSON.stringify(result.errors)).toMatchObject({ status: 'done', errors: [], input: 'dom' })
    expect(await page.locator('#read').textContent()).toBe('read')
    expect(await page.evaluate(() => window.scrollY)).toBeLessThan(before)
    await page.close()
  })

  it('still refuses a link under a full-screen modal after the scroll, naming the modal', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'sticky.html')
    await page.evaluate(() => (document.getElementById('paywall')!.hidden = false))
    const result = await act(page, action('click', { target: { by: 'selector', value: '#story' } }))
    expect(result.status).toBe('failed')
    expect(result.errors[0]).toMatchObject({ code: 'TARGET_NOT_INTERACTABLE', message: expect.stringMatching(/covered by <div#paywall\.modal>/) })
    expect(await page.locator('#read').textContent()).toBe('')
    await page.close()
  })

  it('refuses a hidden element found by selector', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'form.html')
    const result = await act(page, action('type', { target: { by: 'selector', value: 'input[name=referrer]' }, params: { text: 'x' } }))
    expect(result.errors[0]).toMatchObject({ code: 'TARGET_NOT_INTERACTABLE', message: expect.stringContaining('not visible') })
    await page.close()
  })

  it('scrolls a far element into view before acting on it', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'dynamic.html')
    await page.evaluate(() => document.getElementById('bottom')!.addEventListener('click', () => ((window as any).bottomClicked = true)))
    const snap = await observe(page)
    await act(page, action('click', { target: { by: 'index', value: indexIn(snap.elementTree, 'Bottom button') } }))
    expect(await page.evaluate(() => (window as any).bottomClicked)).toBe(true)
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000)
    await page.close()
  })
})

describe('locating the element a card is about', () => {
  const locate = (page: Page, target: unknown) =>
    page.evaluate((target) => {
      const w = window as any
      return w.__tandemPage.locateTarget(window, target, w.__tandemMemory ?? w.__tandemPage.createPageMemory(location.href))
    }, target)
  const boxOf = (page: Page, selector: string) =>
    page.evaluate((selector) => {
      const r = document.querySelector(selector)!.getBoundingClientRect()
      return { x: r.left / innerWidth, y: r.top / innerHeight, w: r.width / innerWidth, h: r.height / innerHeight }
    }, selector)

  it('brings an element far down the page into view and marks where it is, with the words on it', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'long.html')
    expect(await page.evaluate(() => scrollY)).toBe(0)
    const found = await locate(page, { by: 'selector', value: '#s90 h2' })
    expect(await page.evaluate(() => scrollY)).toBeGreaterThan(1000)
    expect(found.name).toBe('Section 90')
    const box = await boxOf(page, '#s90 h2')
    for (const k of ['x', 'y', 'w', 'h'] as const) expect(found.mark![k]).toBeCloseTo(box[k], 3)
    // In view: the mark lies inside the picture.
    expect(found.mark!.y).toBeGreaterThan(0)
    expect(found.mark!.y + found.mark!.h).toBeLessThan(1)
    expect(await locate(page, { by: 'selector', value: '#nowhere' })).toEqual({})
    await page.close()
  })

  it('marks an element inside a frame where it shows in the whole tab', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'frames.html')
    await page.frameLocator('#inner').locator('#apply').waitFor()
    const tree = (await observe(page)).elementTree
    const found = await locate(page, { by: 'index', value: indexIn(tree, 'Apply coupon') })
    expect(found.name).toBe('Apply coupon')
    const frame = await boxOf(page, '#inner')
    const inner = await page.frameLocator('#inner').locator('#apply').boundingBox()
    const size = await page.evaluate(() => ({ w: innerWidth, h: innerHeight }))
    expect(found.mark!.x).toBeCloseTo(inner!.x / size.w, 3)
    expect(found.mark!.y).toBeCloseTo(inner!.y / size.h, 3)
    expect(found.mark!.x).toBeGreaterThan(frame.x)
    await page.close()
  })
})

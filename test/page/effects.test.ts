import type { Page } from 'playwright-core'
import { beforeEach, describe, expect, it } from 'vitest'
import { act, action, indexIn, observe, openFixture, useFixtureBrowser } from '../support/page-lib'

// Each step checks its own effect on effects.html: a page whose controls work, and ones that quietly do nothing.
const env = useFixtureBrowser()
let page: Page
beforeEach(async () => {
  await page?.close()
  page = await openFixture(env.browser, env.fixtures, 'effects.html')
  await observe(page)
})

const at = (selector: string) => ({ target: { by: 'selector' as const, value: selector } })
const type = (selector: string, text: string, more: Record<string, unknown> = {}) => act(page, action('type', { ...at(selector), params: { text, ...more } }))
const click = (selector: string) => act(page, action('click', at(selector)))
const value = (selector: string) => page.inputValue(selector)
const attr = (selector: string, name: string) => page.getAttribute(selector, name)

describe('type reads the value back', () => {
  it('sets a date input from the ways a person writes a date', async () => {
    for (const [text, iso] of [
      ['24/11/2026', '2026-11-24'],
      ['2026-11-24', '2026-11-24'],
      ['11/24/2026', '2026-11-24'],
      ['Nov 24 2026', '2026-11-24'],
      ['24 November 2026', '2026-11-24'],
      ['2026年11月24日', '2026-11-24'],
      // The page is en-GB: both numbers 12 or less read day first.
      ['03/04/2026', '2026-04-03'],
    ]) {
      expect(await type('#date', text), text).toMatchObject({ status: 'done', errors: [] })
      expect(await value('#date'), text).toBe(iso)
    }
  })

  it('sets time, datetime-local and month inputs in their own form', async () => {
    expect((await type('#time', '3:30 PM')).status).toBe('done')
    expect(await value('#time')).toBe('15:30')
    expect((await type('#time', '下午3点30分')).status).toBe('done')
    expect(await value('#time')).toBe('15:30')
    expect((await type('#time', '09:05')).status).toBe('done')
    expect(await value('#time')).toBe('09:05')
    expect((await type('#when', '24/11/2026 3:30 PM')).status).toBe('done')
    expect(await value('#when')).toBe('2026-11-24T15:30')
    expect((await type('#month', 'November 2026')).status).toBe('done')
    expect(await value('#month')).toBe('2026-11')
  })

  it('says a date it cannot read left the input empty', async () => {
    const result = await type('#date', 'next Tuesday-ish')
    expect(result.status).toBe('failed')
    expect(result.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { expected: expect.stringContaining('next Tuesday-ish'), found: expect.stringContaining('an empty field') } })
    expect(await value('#date')).toBe('')
  })

  it('takes a number and a range value, with the separators a person types', async () => {
    expect(await type('#guests', '1,000')).toMatchObject({ status: 'done', errors: [] })
    expect(await value('#guests')).toBe('1000')
    expect(await type('#volume', '75')).toMatchObject({ status: 'done', errors: [] })
    expect(await value('#volume')).toBe('75')
    const words = await type('#budget', 'lots')
    expect(words.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { found: 'an empty field' } })
  })

  it('counts a value the page reformatted (a phone mask) as typed', async () => {
    expect(await type('#phone', '1234567890')).toMatchObject({ status: 'done', errors: [] })
    expect(await value('#phone')).toBe('(123) 456-7890')
  })

  it('reports no effect when a controlled input puts its own value back', async () => {
    const result = await type('#locked', 'B-200')
    expect(result.status).toBe('failed')
    expect(result.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { expected: '"B-200"', found: '"A-100" (unchanged)' } })
    expect(await value('#locked')).toBe('A-100')
  })

  it('never puts a password into what it expected or found', async () => {
    // Credential entry is approved by the person first.
    const result = await act(page, action('type', { ...at('#pin'), params: { text: 'hunter2-secret' }, risk: 'high', requiresConfirmation: true, confirmation: { approved: true, at: new Date().toISOString(), by: 'c1' } }))
    expect(result.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { expected: 'the typed secret in the field', found: 'an empty field' } })
    expect(JSON.stringify(result)).not.toContain('hunter2')
  })

  it('masks a card number, and an email when the task asks, in what it expected and found', async () => {
    const result = await act(page, action('type', { ...at('#locked'), params: { text: '4111 1111 1111 1111 to ada@example.com' }, redact: { emails: true } }))
    expect(result.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { expected: '"•••• to ••••"' } })
    expect(JSON.stringify(result)).not.toMatch(/4111|ada@/)
  })

  it('reads a textarea and a contenteditable editor back', async () => {
    expect(await type('#notes', 'line one\nline two')).toMatchObject({ status: 'done', errors: [] })
    expect(await type('#story', 'Once upon a time')).toMatchObject({ status: 'done', errors: [] })
    expect(await page.textContent('#story')).toContain('Once upon a time')
    const frozen = await type('#frozen', 'More words')
    expect(frozen.status).toBe('failed')
    expect(frozen.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { expected: 'the text "More words" in the editor', found: '"Draft" (unchanged)' } })
    expect(await page.textContent('#frozen')).toBe('Draft')
  })
})

describe('click reads the state of what it toggled', () => {
  it('toggles a checkbox, and says when the page refused the click', async () => {
    expect(await click('#terms')).toMatchObject({ status: 'done', errors: [] })
    expect(await page.isChecked('#terms')).toBe(true)
    const stuck = await click('#stuck')
    expect(stuck.status).toBe('failed')
    expect(stuck.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { expected: expect.stringContaining('checked = true'), found: expect.stringContaining('checked = false') } })
    expect(await page.isChecked('#stuck')).toBe(false)
  })

  it('reads a switch box by the state it declares (aria-checked) when its own checked lags behind', async () => {
    expect(await click('#renew')).toMatchObject({ status: 'done', errors: [] })
    expect(await attr('#renew', 'aria-checked')).toBe('true')
    expect(await page.isChecked('#renew')).toBe(false)
  })

  it('chooses a radio; one already chosen is left so, with no error', async () => {
    expect(await click('#large')).toMatchObject({ status: 'done', errors: [] })
    expect(await page.isChecked('#large')).toBe(true)
    expect(await click('#large')).toMatchObject({ status: 'done', errors: [] })
  })

  it('flips a switch and a toggle button; a switch whose handler is missing is no effect', async () => {
    expect((await click('#wifi')).status).toBe('done')
    expect(await attr('#wifi', 'aria-checked')).toBe('true')
    expect((await click('#bold')).status).toBe('done')
    expect(await attr('#bold', 'aria-pressed')).toBe('true')
    const dead = await click('#dead-switch')
    expect(dead.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { found: expect.stringContaining('checked = false') } })
  })

  it('selects a tab that updates a moment later; the selected tab again is fine; a broken tab is no effect', async () => {
    expect(await click('#tab-b')).toMatchObject({ status: 'done', errors: [] })
    expect(await attr('#tab-b', 'aria-selected')).toBe('true')
    expect(await click('#tab-b')).toMatchObject({ status: 'done', errors: [] })
    const dead = await click('#tab-c')
    expect(dead.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { expected: expect.stringContaining('selected = true') } })
  })

  it('takes a click the page answered otherwise as done, with what it expected as a hint (a cascader opening its next column)', async () => {
    const opened = await click('#zhejiang')
    expect(opened).toMatchObject({ status: 'done', errors: [], unmet: { expected: expect.stringContaining('checked = true'), found: expect.stringContaining('checked = false'), changed: ['dom'] } })
    expect(await page.locator('#cities').count()).toBe(1)
    // The same click again changes nothing any more: now it is no effect.
    const again = await click('#zhejiang')
    expect(again.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT' })
    expect(again.unmet).toBeUndefined()
  })

  it('sees a change in an open shadow root', async () => {
    const snap = await observe(page)
    const agree = await act(page, action('click', { target: { by: 'index', value: indexIn(snap.elementTree, 'Agree') } }))
    expect(agree).toMatchObject({ status: 'done', unmet: { changed: ['dom'] } })
  })

  it('opens a details element by its summary', async () => {
    expect(await click('#more-summary')).toMatchObject({ status: 'done', errors: [] })
    expect(await page.evaluate(() => (document.getElementById('more') as HTMLDetailsElement).open)).toBe(true)
  })
})

describe('select reads the chosen value back', () => {
  it('chooses a native option, and says when a controlled select puts its value back', async () => {
    expect(await act(page, action('select', { ...at('#colour'), params: { option: 'Blue' } }))).toMatchObject({ status: 'done', errors: [] })
    expect(await value('#colour')).toBe('blue')
    const plan = await act(page, action('select', { ...at('#plan'), params: { option: 'Pro' } }))
    expect(plan.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { expected: 'option "Pro" chosen', found: expect.stringContaining('Free') } })
    expect(await value('#plan')).toBe('free')
  })

  it('checks an ARIA option says it is selected after the click', async () => {
    expect(await act(page, action('select', { ...at('#apple'), params: { option: 'Apple' } }))).toMatchObject({ status: 'done', errors: [] })
    const pear = await act(page, action('select', { ...at('#pear'), params: { option: 'Pear' } }))
    expect(pear.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT' })
    expect(await attr('#pear', 'aria-selected')).toBe('false')
  })
})

describe('scroll compares the position', () => {
  it('scrolls a list down, then says it is already at its bottom', async () => {
    const scroll = () => act(page, action('scroll', { ...at('#list'), params: { direction: 'down', amount: 200 } }))
    expect(await scroll()).toMatchObject({ status: 'done', errors: [] })
    expect(await scroll()).toMatchObject({ status: 'done', errors: [] })
    const end = await scroll()
    expect(end.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { found: expect.stringContaining('already at the bottom') } })
  })

  it('says the page is already at its top when scrolled up there', async () => {
    const up = await act(page, action('scroll', { params: { direction: 'up' } }))
    expect(up.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { expected: 'the page scrolled up', found: expect.stringContaining('already at the top') } })
    expect((await act(page, action('scroll', { params: { direction: 'down' } }))).status).toBe('done')
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
  })

  it('says a page that does not scroll itself has its content in a box to scroll', async () => {
    await page.evaluate(() => {
      document.documentElement.style.overflow = 'hidden'
      document.body.style.cssText = 'height: 100vh; margin: 0; overflow: auto'
    })
    const down = await act(page, action('scroll', { params: { direction: 'down' } }))
    expect(down.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { found: expect.stringContaining('the page itself does not scroll') } })
  })

  it('takes a scroll on a page that is all in view as done: there was nothing more to see', async () => {
    await page.evaluate(() => {
      document.body.innerHTML = '<p>Short page</p>'
    })
    expect(await act(page, action('scroll', { params: { direction: 'down' } }))).toMatchObject({ status: 'done', errors: [] })
  })
})

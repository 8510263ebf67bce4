import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { LINE, observe, openFixture, useFixtureBrowser, lineFor } from '../support/page-lib'

const env = useFixtureBrowser()

describe('observePage: the element tree', () => {
  let page: Page
  beforeAll(async () => {
    page = await openFixture(env.browser, env.fixtures, 'form.html')
  })

  it('writes one [N]<tag attrs>text line per interactive element, indexed from 0 in document order', async () => {
    const snap = await observe(page)
    const lines = snap.elementTree.split('\n')
    expect(lines.length).toBe(snap.elements.length)
    lines.forEach((line, i) => {
      expect(line).toMatch(LINE)
      expect(line.startsWith(`[${i}]<`)).toBe(true)
    })
    expect(snap.elements.map((e) => e.index)).toEqual(lines.map((_, i) => i))
    expect(lineFor(snap.elementTree, 'Home')).toMatch(/^\[0\]<a href="\/">Home$/)
    expect(snap.url).toBe(env.fixtures.url('form.html'))
    expect(snap.title).toBe('Sign up')
  })

  it('keeps the attributes that help and shortens links', async () => {
    const { elementTree: tree } = await observe(page)
    expect(lineFor(tree, 'name=fullname')).toMatch(/^\[\d+\]<input type=text name=fullname placeholder="Jane Doe">Full name$/)
    expect(lineFor(tree, 'name=email')).toContain('value="jane@example.com"')
    expect(lineFor(tree, 'Help')).toContain('href="elsewhere.example/help?topic=signup&lang=en"')
    expect(lineFor(tree, 'name=country')).toContain('options="Choose…|France|Germany|Japan"')
    expect(lineFor(tree, 'name=plan')).toContain('checked')
    expect(lineFor(tree, 'Disabled action')).toContain(' disabled')
    expect(lineFor(tree, 'More options')).toMatch(/<summary expanded=false>More options$/)
    expect(lineFor(tree, 'name=terms')).toMatch(/<input type=checkbox name=terms>I have read the terms$/)
    // A visually hidden checkbox behind a styled label is still offered (the label is what gets clicked).
    expect(lineFor(tree, 'name=newsletter')).toContain('type=checkbox')
    // Hidden things are not offered, and the referrer field inside closed <details> is not visible.
    expect(tree).not.toContain('referrer')
    expect(tree).not.toContain('type=hidden')
  })

  it('never shows password, card or one-time-code values anywhere', async () => {
    await page.fill('input[name=fullname]', 'Typed name')
    const snap = await observe(page)
    const everything = JSON.stringify(snap)
    for (const secret of ['hunter2-topsecret', '4111111111111111', '918273']) expect(everything).not.toContain(secret)
    expect(lineFor(snap.elementTree, 'type=password')).toContain('value="••••"')
    expect(snap.elementTree).toContain('value="Typed name"')
  })

  it('masks values the caller typed from secrets, in the tree, the elements and the text', async () => {
    await page.fill('textarea[name=bio]', 'my pin is s3cr3t-value ok')
    await page.evaluate(() => document.querySelector('h1')!.append(' s3cr3t-value'))
    const snap = await observe(page, { redactValues: ['s3cr3t-value'] })
    expect(JSON.stringify(snap)).not.toContain('s3cr3t-value')
    expect(lineFor(snap.elementTree, 'name=bio')).toContain('value="my pin is •••• ok"')
    expect(snap.visibleTextSnippet).toContain('Create your account ••••')
  })

  it('gives readable visible text without scripts, styles or hidden parts', async () => {
    const snap = await observe(page, { textLimit: 10_000 })
    expect(snap.visibleTextSnippet).toContain('Create your account')
    expect(snap.visibleTextSnippet).not.toContain('secret hidden text')
    expect(snap.visibleTextSnippet).not.toContain('queueMicrotask')
    expect(snap.visibleTextSnippet).not.toMatch(/\s{2,}/)
    const short = await observe(page, { textLimit: 40 })
    expect(short.visibleTextSnippet.length).toBeLessThanOrEqual(40)
  })

  it('marks elements that were not in the previous observation with *', async () => {
    await observe(page)
    const again = await observe(page, { keepPrevious: true })
    expect(again.elementTree).not.toMatch(/^\*/m)
    await page.evaluate(() => {
      const b = document.createElement('button')
      b.textContent = 'Brand new'
      document.body.append(b)
    })
    const after = await observe(page, { keepPrevious: true })
    const marked = after.elementTree.split('\n').filter((l) => l.startsWith('*'))
    expect(marked).toEqual([expect.stringMatching(/^\*\[\d+\]<button>Brand new$/)])
    expect(after.elements.filter((e) => e.isNew).map((e) => e.text)).toEqual(['Brand new'])
  })

  it('stays smaller than Playwright\'s aria snapshot of the same page', async () => {
    const snap = await observe(page)
    const aria = await page.locator('body').ariaSnapshot()
    expect(snap.elementTree.length).toBeLessThan(aria.length)
  })

  it('describes form context so search forms can be told apart', async () => {
    const snap = await observe(page)
    const search = snap.elements.find((e) => e.attributes?.name === 'q')!
    const email = snap.elements.find((e) => e.attributes?.name === 'email')!
    expect(search.form).toMatchObject({ isSearch: true, role: 'search' })
    expect(email.form).toMatchObject({ isSearch: false, action: '/signup' })
    expect(email.fingerprint).toMatch(/^[0-9a-z]+$/)
  })
})

describe('observePage: what counts as interactive', () => {
  it('finds clickable divs without semantics, but not the spans inside them', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'clickable.html')
    const { elementTree: tree } = await observe(page)
    expect(lineFor(tree, 'Blue kettle')).toMatch(/<div>Blue kettle €25$/)
    expect(lineFor(tree, 'Red toaster')).toMatch(/<div>Red toaster €40 Reviews$/)
    expect(tree).toMatch(/<a href="\/p2\/reviews">Reviews$/m)
    expect(lineFor(tree, 'Open gallery')).toMatch(/<div>Open gallery$/)
    expect(lineFor(tree, 'Focusable panel')).toMatch(/<div>Focusable panel$/)
    expect(tree).not.toContain('Not in tab order')
    expect(tree).not.toMatch(/<span/)
    await page.close()
  })

  it('walks open shadow roots but not closed ones', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'shadow.html')
    const snap = await observe(page)
    expect(snap.elementTree).toContain('<input type=text name=username placeholder="Your username">Username')
    expect(snap.elementTree).toMatch(/<button>Log in with shadow$/m)
    expect(snap.elementTree).not.toContain('Closed shadow button')
    expect(snap.visibleTextSnippet).toContain('Shadow text is readable')
    await page.close()
  })

  it('walks same-origin frames and skips cross-origin ones silently', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'frames.html')
    await page.frameLocator('#foreign').locator('#apply').waitFor()
    await page.frameLocator('#inner').locator('#apply').waitFor()
    const snap = await observe(page)
    const coupons = snap.elementTree.split('\n').filter((l) => l.includes('Apply coupon'))
    expect(coupons).toHaveLength(1)
    expect(snap.elementTree).toContain('placeholder="Coupon code"')
    expect(snap.visibleTextSnippet).toContain('Inner frame text')
    expect(snap.visibleTextSnippet.match(/Inner frame text/g)).toHaveLength(1)
    await page.close()
  })

  it('lists what the markup declares clickable: inline handlers and the bindings frameworks write into HTML', async () => {
    const page = await env.browser.newPage()
    await page.setContent(`<span ondblclick="void 0">Rename</span> <div @click="open = true">Alpine</div> <div x-on:click.outside="x">Away</div>
      <span ng-click="go()">Angular</span> <span hx-post="/x">Send later</span> <span data-action="click->menu#open">Stimulus</span>
      <a data-handler="next" data-event="click">Next</a> <span data-event="mouseover">Tip</span> <span>Plain</span>`)
    const { injectPageLib } = await import('../support/page-lib')
    await injectPageLib(page)
    const texts = (await observe(page)).elements.map((e) => e.text)
    expect(texts).toEqual(['Rename', 'Alpine', 'Away', 'Angular', 'Send later', 'Stimulus', 'Next'])
    await page.close()
  })

  it('keeps the elements nearest the viewport when capped, reports scroll room', async () => {
    const page = await env.browser.newPage({ viewport: { width: 800, height: 600 } })
    const buttons = Array.from({ length: 300 }, (_, i) => `<button style="display:block;height:40px">B${i}</button>`).join('')
    await page.setContent(`<body style="margin:0">${buttons}</body>`)
    const { injectPageLib } = await import('../support/page-lib')
    await injectPageLib(page)
    await page.evaluate(() => window.scrollTo(0, 4000))
    const snap = await observe(page, { maxElements: 20 })
    expect(snap.elements).toHaveLength(20)
    const numbers = snap.elements.map((e) => Number(e.text!.slice(1)))
    // 4000px / 40px = B100 at the top of the viewport; 600px shows 15 buttons.
    expect(Math.min(...numbers)).toBeGreaterThanOrEqual(95)
    expect(Math.max(...numbers)).toBeLessThanOrEqual(120)
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b))
    expect(snap.scroll).toEqual({ y: 4000, pixelsAbove: 4000, pixelsBelow: 300 * 40 - 4000 - 600 })
    await page.close()
  })
})

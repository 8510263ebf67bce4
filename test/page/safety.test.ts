import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { scanPixels } from '../support/pixels'
import { act, action, observe, openFixture, useFixtureBrowser, indexIn } from '../support/page-lib'

const env = useFixtureBrowser()

const confirmation = { approved: true as const, at: new Date(0).toISOString(), by: 'tester' }
const status = (page: Page) => page.locator('#status').textContent()

describe('the in-page risk check (defence in depth)', () => {
  let page: Page
  beforeAll(async () => {
    page = await openFixture(env.browser, env.fixtures, 'checkout.html')
  })

  it('refuses an unconfirmed "Place order" click and does nothing, even when the server said low', async () => {
    const snap = await observe(page)
    const result = await act(page, action('click', { target: { by: 'index', value: indexIn(snap.elementTree, 'Place order') }, risk: 'low' }))
    expect(result.status).toBe('failed')
    expect(result.errors[0]?.code).toBe('CONFIRMATION_REQUIRED')
    expect(await status(page)).toBe('pending')
  })

  it('refuses the same click found by text or role', async () => {
    for (const target of [{ by: 'text', value: 'Place order' }, { by: 'role', value: 'button:Place order' }] as const) {
      expect((await act(page, action('click', { target }))).errors[0]?.code).toBe('CONFIRMATION_REQUIRED')
    }
    expect(await status(page)).toBe('pending')
  })

  it('treats Enter in a non-search form field, and type with submit, as a submit', async () => {
    const snap = await observe(page)
    const holder = indexIn(snap.elementTree, 'name=holder')
    await page.focus('input[name=holder]')
    expect((await act(page, action('press', { params: { keys: 'Enter' } }))).errors[0]?.code).toBe('CONFIRMATION_REQUIRED')
    const typed = await act(page, action('type', { target: { by: 'index', value: holder }, params: { text: 'Someone Else', submit: true } }))
    expect(typed.errors[0]?.code).toBe('CONFIRMATION_REQUIRED')
    // Refused before touching anything: the field keeps its value.
    expect(await page.inputValue('input[name=holder]')).toBe('Jane Doe')
    expect(await status(page)).toBe('pending')
  })

  it('treats typing into a password or card field as credential entry', async () => {
    for (const name of ['pw', 'cardnumber']) {
      const result = await act(page, action('type', { target: { by: 'selector', value: `input[name=${name}]` }, params: { text: 'typed-secret' } }))
      expect(result.errors[0]?.code, name).toBe('CONFIRMATION_REQUIRED')
    }
    expect(await page.inputValue('input[name=cardnumber]')).toBe('')
  })

  it('lets harmless clicks through without confirmation', async () => {
    await observe(page)
    expect(await act(page, action('click', { target: { by: 'text', value: 'Add a note' } }))).toEqual({ status: 'done', errors: [], input: 'dom' })
    expect(await status(page)).toBe('noted')
  })

  it('refuses a step the server marked for confirmation but that carries none', async () => {
    const result = await act(page, action('click', { target: { by: 'text', value: 'Add a note' }, requiresConfirmation: true }))
    expect(result.errors[0]?.code).toBe('CONFIRMATION_REQUIRED')
  })

  it('goes ahead once the person confirmed', async () => {
    const snap = await observe(page)
    const result = await act(page, action('click', { target: { by: 'index', value: indexIn(snap.elementTree, 'Place order') }, risk: 'high', requiresConfirmation: true, confirmation }))
    expect(result).toEqual({ status: 'done', errors: [], input: 'dom' })
    expect(await status(page)).toBe('ORDER PLACED')
  })
})

describe('secrets', () => {
  it('keeps password, card and CVC values out of the observation and of failure messages', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'checkout.html')
    const snap = await observe(page)
    const card = indexIn(snap.elementTree, 'name=cardnumber')
    const typed = await act(page, action('type', { target: { by: 'index', value: card }, params: { text: '4242424242424242' }, confirmation }), { redactValues: ['4242424242424242'] })
    expect(typed).toEqual({ status: 'done', errors: [], input: 'dom' })
    const after = await observe(page, { redactValues: ['4242424242424242'] })
    // Everything that leaves the page, minus the URL and hashes (digits there could match by chance).
    const exposed = JSON.stringify({ tree: after.elementTree, text: after.visibleTextSnippet, title: after.title, elements: after.elements.map(({ fingerprint: _f, ...e }) => e) })
    for (const secret of ['hunter2-topsecret', '4242424242424242', '8675']) expect(exposed).not.toContain(secret)
    expect(after.elementTree).toContain('<input type=text name=cardnumber value="••••" autocomplete=cc-number>Card number')
    await page.close()
  })

  it('covers secret fields and marked secret text with opaque boxes for a screenshot, then removes them', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'checkout.html')
    await page.evaluate(() => {
      const p = document.createElement('p')
      p.textContent = 'Your code is ZX-9911 keep it'
      document.body.append(p)
    })
    // What a screenshot shows at the centre of an element: the mean brightness of a small patch, decoded in the page.
    const brightness = async (selector: string) => {
      const box = (await page.locator(selector).boundingBox())!
      const png = await page.screenshot({ clip: { x: box.x + box.width / 2 - 3, y: box.y + box.height / 2 - 3, width: 6, height: 6 } })
      return (await scanPixels(page, png)).brightness
    }
    await page.evaluate(() => ((window as any).__unmask = (window as any).__tandemPage.maskSensitiveFields(window, { secretValues: ['ZX-9911'] })))
    for (const selector of ['input[name=pw]', 'input[name=cvc]', 'input[name=cardnumber]']) expect(await brightness(selector), selector).toBeLessThan(10)
    expect(await brightness('input[name=holder]')).toBeGreaterThan(200)
    // Three fields and the secret inside the paragraph's text.
    expect(await page.locator('[data-tandem-mask]').count()).toBe(4)
    await page.evaluate(() => (window as any).__unmask())
    expect(await page.locator('[data-tandem-mask]').count()).toBe(0)
    expect(await brightness('input[name=pw]')).toBeGreaterThan(200)
    await page.close()
  })

  it('covers card numbers in page text always, and emails and phone numbers in text and fields only when asked', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'checkout.html')
    await page.evaluate(() => {
      const p = document.createElement('p')
      p.innerHTML = 'Card <b id="card">4539 1726 0458 9134</b>, mail <b id="mail">ada.canary@example.org</b>, call <b id="tel">+86 138 0013 8000</b>, order <b id="order">48213</b>'
      document.body.append(p)
      const input = document.createElement('input')
      input.id = 'contact'
      input.value = 'zhang.wei@example.cn'
      document.body.append(input)
    })
    const masked = () => page.evaluate(() => document.querySelectorAll('[data-tandem-mask]').length)
    const covered = (id: string) =>
      page.evaluate((id) => {
        // Masks ignore the pointer, so hit-testing cannot see them: compare boxes.
        const r = document.getElementById(id)!.getBoundingClientRect()
        const [x, y] = [r.left + r.width / 2, r.top + r.height / 2]
        return Array.from(document.querySelectorAll('[data-tandem-mask]'), (m) => m.getBoundingClientRect()).some(
          (m) => m.left <= x && x <= m.right && m.top <= y && y <= m.bottom,
        )
      }, id)
    await page.evaluate(() => ((window as any).__unmask = (window as any).__tandemPage.maskSensitiveFields(window)))
    expect(await covered('card')).toBe(true)
    for (const id of ['mail', 'tel', 'contact', 'order']) expect(await covered(id), id).toBe(false)
    // Three secret fields and the card number.
    expect(await masked()).toBe(4)
    await page.evaluate(() => (window as any).__unmask())

    await page.evaluate(() => ((window as any).__unmask = (window as any).__tandemPage.maskSensitiveFields(window, { redact: { emails: true, phones: true } })))
    for (const id of ['card', 'mail', 'tel', 'contact']) expect(await covered(id), id).toBe(true)
    expect(await covered('order')).toBe(false)
    await page.evaluate(() => (window as any).__unmask())
    expect(await masked()).toBe(0)
    await page.close()
  })
})

describe('the in-page check where the write barrier holds what a step sends', () => {
  let page: Page
  beforeAll(async () => {
    page = await openFixture(env.browser, env.fixtures, 'checkout.html')
    // A chat's message box beside the form: Enter in it sends, over a socket nothing blocks.
    await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<textarea id="message" aria-label="Message #general"></textarea>'))
  })
  const held = { barrier: 'held' }

  it('refuses by its words a step the barrier cannot stand in for: no barrier, or a fallback that only blocks', async () => {
    for (const barrier of [undefined, 'blocked', 'off']) {
      const result = await act(page, action('click', { target: { by: 'text', value: 'Place order' } }), barrier ? { barrier } : {})
      expect(result.errors[0]?.code, String(barrier)).toBe('CONFIRMATION_REQUIRED')
      await page.focus('#message')
      const enter = await act(page, action('press', { params: { keys: 'Enter' } }), barrier ? { barrier } : {})
      expect(enter.errors[0]?.code, `Enter in a message box, ${barrier}`).toBe('CONFIRMATION_REQUIRED')
    }
    expect(await status(page)).toBe('pending')
  })

  it('runs a step whose words alone looked risky: what it sends is the question, if anything', async () => {
    await page.focus('input[name=holder]')
    expect((await act(page, action('press', { params: { keys: 'Enter' } }), held)).status).toBe('done')
    expect(await status(page)).toBe('ORDER PLACED')
    await page.evaluate(() => (document.getElementById('status')!.textContent = 'pending'))
    expect((await act(page, action('click', { target: { by: 'text', value: 'Place order' } }), held)).status).toBe('done')
    expect(await status(page)).toBe('ORDER PLACED')
    await page.focus('#message')
    expect((await act(page, action('press', { params: { keys: 'Enter' } }), held)).status).toBe('done')
  })

  it('still refuses what the barrier cannot see: a credential typed, a risk the step declared, a step marked for confirmation', async () => {
    const typed = await act(page, action('type', { target: { by: 'selector', value: 'input[name=pw]' }, params: { text: 'typed-secret' } }), held)
    expect(typed.errors[0]?.code).toBe('CONFIRMATION_REQUIRED')
    const declared = await act(page, action('click', { target: { by: 'text', value: 'Add a note' }, risk: 'high' }), held)
    expect(declared.errors[0]?.code).toBe('CONFIRMATION_REQUIRED')
    const marked = await act(page, action('click', { target: { by: 'text', value: 'Add a note' }, requiresConfirmation: true }), held)
    expect(marked.errors[0]?.code).toBe('CONFIRMATION_REQUIRED')
    expect(await page.inputValue('input[name=pw]')).toBe('hunter2-topsecret')
  })
})

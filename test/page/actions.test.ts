import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { act, action, observe, openFixture, useFixtureBrowser } from '../support/page-lib'

const env = useFixtureBrowser()

async function indexOf(page: Page, match: (line: string) => boolean): Promise<number> {
  const snap = await observe(page)
  const line = snap.elementTree.split('\n').find(match)
  if (!line) throw new Error(`no such element in:\n${snap.elementTree}`)
  return Number(/\[(\d+)\]/.exec(line)![1])
}

const text = (page: Page, selector: string) => page.locator(selector).textContent()

describe('click', () => {
  it('clicks a clickable div with a delegated (React-style) handler and one with inline onclick', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'clickable.html')
    const card = await indexOf(page, (l) => l.includes('Red toaster'))
    expect(await act(page, action('click', { target: { by: 'index', value: card } }))).toEqual({ status: 'done', errors: [], input: 'dom' })
    expect(await text(page, '#opened')).toBe('p2')
    const gallery = await indexOf(page, (l) => l.includes('Open gallery'))
    expect((await act(page, action('click', { target: { by: 'index', value: gallery } }))).status).toBe('done')
    expect(await text(page, '#opened')).toBe('gallery')
    await page.close()
  })

  it('toggles a checkbox, and a visually hidden one through its label', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'form.html')
    const terms = await indexOf(page, (l) => l.includes('name=terms'))
    await act(page, action('click', { target: { by: 'index', value: terms } }))
    expect(await page.isChecked('input[name=terms]')).toBe(true)
    const newsletter = await indexOf(page, (l) => l.includes('name=newsletter'))
    expect(await act(page, action('click', { target: { by: 'index', value: newsletter } }))).toEqual({ status: 'done', errors: [], input: 'dom' })
    expect(await page.isChecked('#newsletter')).toBe(true)
    expect(await text(page, '#log')).toContain('change newsletter=true')
    await page.close()
  })

  it('refuses a disabled button', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'form.html')
    await observe(page)
    const result = await act(page, action('click', { target: { by: 'text', value: 'Disabled action' } }))
    expect(result.status).toBe('failed')
    expect(result.errors[0]).toMatchObject({ code: 'TARGET_NOT_INTERACTABLE', message: expect.stringContaining('disabled') })
    await page.close()
  })
})

describe('type', () => {
  let page: Page
  beforeAll(async () => {
    page = await openFixture(env.browser, env.fixtures, 'form.html')
  })

  it('keeps its value in a React-style controlled input (native setter + input event)', async () => {
    const nick = await indexOf(page, (l) => l.includes('name=nickname'))
    expect(await act(page, action('type', { target: { by: 'index', value: nick }, params: { text: 'Speedy' } }))).toEqual({ status: 'done', errors: [], input: 'dom' })
    await page.waitForTimeout(20)
    expect(await page.inputValue('#react-input')).toBe('Speedy')
    expect(await text(page, '#react-state')).toBe('Speedy')
    // The control: a plain `input.value = …` is reverted by the framework, so the fixture does detect the difference.
    await page.evaluate(() => {
      const input = document.getElementById('react-input') as HTMLInputElement
      input.value = 'naive'
      input.dispatchEvent(new Event('input', { bubbles: true }))
    })
    await page.waitForTimeout(20)
    expect(await text(page, '#react-state')).toBe('Speedy')
  })

  it('replaces the value by default, appends with clear:false, and fires change', async () => {
    const name = await indexOf(page, (l) => l.includes('name=fullname'))
    await act(page, action('type', { target: { by: 'index', value: name }, params: { text: 'Ada' } }))
    await act(page, action('type', { target: { by: 'index', value: name }, params: { text: ' Lovelace', clear: false } }))
    expect(await page.inputValue('input[name=fullname]')).toBe('Ada Lovelace')
    await act(page, action('type', { target: { by: 'selector', value: 'input[name=fullname]' }, params: { text: 'Grace' } }))
    expect(await page.inputValue('input[name=fullname]')).toBe('Grace')
    expect(await text(page, '#log')).toContain('change fullname=Grace')
  })

  it('types into a textarea found by its label text', async () => {
    await observe(page)
    const result = await act(page, action('type', { target: { by: 'text', value: 'About you' }, params: { text: 'Line one\nLine two' } }))
    expect(result.status).toBe('done')
    expect(await page.inputValue('textarea[name=bio]')).toBe('Line one\nLine two')
  })

  it('submits a search form with submit:true, no confirmation needed', async () => {
    const q = await indexOf(page, (l) => l.includes('name=q'))
    expect(await act(page, action('type', { target: { by: 'index', value: q }, params: { text: 'kettle', submit: true } }))).toEqual({ status: 'done', errors: [], input: 'dom' })
    expect(await text(page, '#log')).toContain('submitted search: q=kettle')
  })

  it('types into a contenteditable through insertText (beforeinput and input fire)', async () => {
    const editorPage = await openFixture(env.browser, env.fixtures, 'editable.html')
    const editor = await indexOf(editorPage, (l) => l.includes('Note body'))
    await act(editorPage, action('type', { target: { by: 'index', value: editor }, params: { text: 'Hello editor' } }))
    expect((await editorPage.locator('#editor').innerText()).trim()).toBe('Hello editor')
    expect(await text(editorPage, '#events')).toContain('beforeinput:insertText')
    expect(await text(editorPage, '#events')).toContain('input:insertText')
    await act(editorPage, action('type', { target: { by: 'index', value: editor }, params: { text: ' again', clear: false } }))
    expect((await editorPage.locator('#editor').innerText()).trim()).toBe('Hello editor again')
    await editorPage.close()
  })

  it('refuses an element that takes no text', async () => {
    const link = await indexOf(page, (l) => l.includes('Home'))
    const result = await act(page, action('type', { target: { by: 'index', value: link }, params: { text: 'x' } }))
    expect(result.errors[0]?.code).toBe('TARGET_NOT_INTERACTABLE')
  })
})

describe('select', () => {
  it('picks a native option by text, by value, and by partial text', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'form.html')
    const country = await indexOf(page, (l) => l.includes('name=country'))
    await act(page, action('select', { target: { by: 'index', value: country }, params: { option: 'Germany' } }))
    expect(await page.inputValue('select[name=country]')).toBe('de')
    await act(page, action('select', { target: { by: 'index', value: country }, params: { option: 'jp' } }))
    expect(await page.inputValue('select[name=country]')).toBe('jp')
    await act(page, action('select', { target: { by: 'index', value: country }, params: { option: 'fran' } }))
    expect(await page.inputValue('select[name=country]')).toBe('fr')
    expect(await text(page, '#log')).toContain('change country=fr')
    const missing = await act(page, action('select', { target: { by: 'index', value: country }, params: { option: 'Mars' } }))
    expect(missing.errors[0]).toMatchObject({ code: 'TARGET_NOT_FOUND', message: expect.stringContaining('"Japan"') })
    await page.close()
  })

  it('opens an ARIA combobox, waits for its options, and clicks the one named', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'combobox.html')
    const fruit = await indexOf(page, (l) => l.includes('Choose a fruit'))
    expect(await act(page, action('select', { target: { by: 'index', value: fruit }, params: { option: 'Cherry' } }))).toEqual({ status: 'done', errors: [] })
    expect(await text(page, '#fruit-value')).toBe('Cherry')
    await page.close()
  })

  it('waits for an option that something still covers while its popup comes in, then clicks it', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'combobox.html')
    // A veil over the page while the popup animates (as some libraries lay one), gone 300 ms after the click.
    await page.evaluate(() =>
      document.getElementById('fruit')!.addEventListener('click', () => {
        const veil = Object.assign(document.createElement('div'), { id: 'veil' })
        veil.style.cssText = 'position:fixed;inset:0;z-index:10'
        document.body.append(veil)
        setTimeout(() => veil.remove(), 300)
      }),
    )
    const fruit = await indexOf(page, (l) => l.includes('Choose a fruit'))
    expect(await act(page, action('select', { target: { by: 'index', value: fruit }, params: { option: 'Cherry' } }))).toEqual({ status: 'done', errors: [] })
    expect(await text(page, '#fruit-value')).toBe('Cherry')
    await page.close()
  })

  it('types into an editable combobox to filter it, then clicks the option', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'combobox.html')
    await observe(page)
    expect(await act(page, action('select', { target: { by: 'role', value: 'combobox:City' }, params: { option: 'Tokyo' } }))).toEqual({ status: 'done', errors: [] })
    expect(await text(page, '#city-value')).toBe('Tokyo')
    await page.close()
  })

  it('clicks an option of an open listbox', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'combobox.html')
    await observe(page)
    await act(page, action('select', { target: { by: 'role', value: 'listbox:Colour' }, params: { option: 'green' } }))
    expect(await text(page, '#colour-value')).toBe('Green')
    await page.close()
  })
})

describe('press, scroll, waitFor, extract, back', () => {
  it('presses keys in the focused element: Control+A selects, Backspace deletes, Escape reaches listeners', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'form.html')
    await page.fill('input[name=fullname]', 'Someone')
    await page.focus('input[name=fullname]')
    await page.evaluate(() => document.addEventListener('keydown', (e) => ((window as any).lastKey = `${e.key}/${e.keyCode}`)))
    await act(page, action('press', { params: { keys: 'Control+A' } }))
    await act(page, action('press', { params: { keys: 'Backspace' } }))
    expect(await page.inputValue('input[name=fullname]')).toBe('')
    await act(page, action('press', { params: { keys: 'Escape' } }))
    expect(await page.evaluate(() => (window as any).lastKey)).toBe('Escape/27')
    await page.close()
  })

  it('presses Enter in a search field: the form submits like a env.browser would', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'form.html')
    const q = await indexOf(page, (l) => l.includes('name=q'))
    await act(page, action('type', { target: { by: 'index', value: q }, params: { text: 'toaster' } }))
    expect(await act(page, action('press', { params: { keys: 'Enter' } }))).toEqual({ status: 'done', errors: [], input: 'dom' })
    expect(await text(page, '#log')).toContain('submitted search: q=toaster')
    await page.close()
  })

  it('scrolls the page by about a viewport, and an inner box', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'dynamic.html')
    await page.setViewportSize({ width: 800, height: 600 })
    await act(page, action('scroll', { params: { direction: 'down' } }))
    expect(await page.evaluate(() => window.scrollY)).toBe(540)
    await act(page, action('scroll', { params: { direction: 'up', amount: 200 } }))
    expect(await page.evaluate(() => window.scrollY)).toBe(340)
    await page.evaluate(() => window.scrollTo(0, 0))
    await observe(page)
    await act(page, action('scroll', { target: { by: 'role', value: 'list:Scroll box' }, params: { direction: 'down', amount: 90 } }))
    expect(await page.evaluate(() => document.getElementById('box')!.scrollTop)).toBe(90)
    expect(await page.evaluate(() => window.scrollY)).toBe(0)
    await page.close()
  })

  it('waits for text and for a URL change, and times out with TIMEOUT', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'dynamic.html')
    await page.click('#later')
    const started = Date.now()
    expect(await act(page, action('waitFor', { params: { text: '3 results found', timeoutMs: 3000 } }))).toEqual({ status: 'done', errors: [] })
    expect(Date.now() - started).toBeLessThan(2500)
    await page.click('#route')
    expect((await act(page, action('waitFor', { params: { urlIncludes: 'step=2', timeoutMs: 3000 } }))).status).toBe('done')
    const late = await act(page, action('waitFor', { params: { selector: '#never', timeoutMs: 300 } }))
    expect(late).toEqual({ status: 'failed', errors: [{ code: 'TIMEOUT', message: 'waited 300 ms for element "#never"' }] })
    await page.close()
  })

  it('extracts the readable text (with the instruction echoed for the server-side model)', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'checkout.html')
    const result = await act(page, action('extract', { params: { instruction: 'What is the status?' } }))
    expect(result.status).toBe('done')
    const extracted = result.extracted as { text: string; instruction: string; url: string; truncated: boolean }
    expect(extracted.instruction).toBe('What is the status?')
    expect(extracted.text).toContain('Checkout')
    expect(extracted.text).toContain('Status: pending')
    expect(extracted.text).not.toContain('hunter2')
    expect(extracted.url).toBe(env.fixtures.url('checkout.html'))
    await page.close()
  })

  it('leaves back to the extension’s background, which goes back through the tabs API', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'dynamic.html')
    await page.evaluate(() => history.pushState({}, '', '/dynamic.html?next'))
    const result = await act(page, action('back'))
    expect(result.errors[0]).toMatchObject({ code: 'ACTION_FAILED', message: expect.stringContaining('background') })
    await page.waitForTimeout(50)
    expect(page.url()).toBe(`${env.fixtures.url('dynamic.html')}?next`)
    await page.close()
  })

  it('rejects params that do not fit the action type', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'dynamic.html')
    const result = await act(page, action('scroll', { params: { direction: 'sideways' } }))
    expect(result.errors[0]?.code).toBe('ACTION_FAILED')
    // What the model's form refuses, the page refuses too: the same table says what each action carries.
    expect((await act(page, action('extract', { params: {} }))).errors[0]?.message).toContain('instruction')
    expect((await act(page, action('navigate', { params: { url: 'https://x.example' } }))).errors[0]?.code).toBe('ACTION_FAILED')
    await page.close()
  })
})

describe('the element a selector named', () => {
  it('comes back as a person reads it (its label), never as the selector, and never with a value in it', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'form.html')
    await observe(page)
    const typed = await act(page, action('type', { target: { by: 'selector', value: '#react-input' }, params: { text: 'Ada' } }))
    expect(typed).toMatchObject({ status: 'done', targetName: 'Nickname (React)' })
    // Typing into a password field is high risk: approved, as the server would send it.
    const approved = { risk: 'high' as const, requiresConfirmation: true, confirmation: { approved: true as const, at: new Date().toISOString(), by: 'c1' } }
    const secret = await act(page, action('type', { target: { by: 'selector', value: '#password' }, params: { text: 'hunter3' }, ...approved }))
    expect(secret).toMatchObject({ status: 'done', targetName: 'Password' })
    expect(JSON.stringify(secret)).not.toContain('hunter')
    // A target by index or text is named by the server from what it observed: the page adds nothing.
    const byText = await act(page, action('click', { target: { by: 'text', value: 'I have read the terms' } }))
    expect(byText).not.toHaveProperty('targetName')
    await page.close()
  })
})

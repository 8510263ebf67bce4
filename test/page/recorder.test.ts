import { resolve } from 'node:path'
import { build } from 'esbuild'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Recorded } from '../../extension/lib/record/recorder'
import { launchChromium } from '../support/page-lib'

// The recorder as the content script runs it, in real Chromium, watching what Playwright does as a person would.
const PAGE = `<!doctype html><html><body>
<form class="booking-form" onsubmit="event.preventDefault()">
  <p><label for="fullname">Full name</label> <input id="fullname" name="fullname"></p>
  <p><label for="pw">Password</label> <input id="pw" name="pw" type="password"></p>
  <p><label>Contact <input name="contact"></label></p>
  <p><label for="room">Room</label> <select id="room" name="room"><option value="">Pick</option><option value="b">Blue room</option></select></p>
  <div class="actions"><button class="btn-send" type="button"><span>Send request</span></button></div>
  <div class="actions"><button class="btn-send" type="button">Send to grace@example.org</button></div>
  <div role="listbox" aria-label="Size"><div role="option" tabindex="0">Large</div></div>
</form></body></html>`

let browser: Browser
let source: string
let page: Page
beforeAll(async () => {
  browser = await launchChromium()
  const out = await build({
    stdin: {
      contents: `import { createRecorder } from './extension/lib/record/recorder'
window.__recorded = []
window.__stop = createRecorder({ win: window, emit: (r) => window.__recorded.push(r) })`,
      resolveDir: resolve('.'),
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'silent',
  })
  source = out.outputFiles[0]!.text
})
afterAll(async () => browser?.close())
beforeEach(async () => {
  page = await browser.newPage()
  await page.setContent(PAGE)
  await page.addScriptTag({ content: source })
})
const recorded = () => page.evaluate(() => (window as unknown as { __recorded: Recorded[] }).__recorded)

describe('the recorder', () => {
  it('reports a field once, with its final value as a parameter, when the person clicks on after typing', async () => {
    await page.getByLabel('Full name').click()
    await page.keyboard.type('Grace Hopper')
    expect(await recorded()).toEqual([])
    await page.getByRole('button', { name: 'Send request' }).click()
    const out = await recorded()
    expect(out.map((r) => r.step)).toEqual([
      { type: 'type', target: { by: 'role', value: 'textbox:Full name' }, selector: '#fullname', text: '{{fullname}}', clear: true },
      { type: 'click', target: { by: 'role', value: 'button:Send request' }, text: 'Send request', selector: 'div.actions:nth-of-type(1) > button.btn-send' },
    ])
    expect(out[0].parameter).toEqual({ name: 'fullname', label: 'Full name', secret: false })
    expect(JSON.stringify(out)).not.toContain('Grace')
  })

  it('marks a password field secret and never carries its value; a value reported is not reported again', async () => {
    await page.getByLabel('Password').fill('hunter2-secret')
    await page.getByLabel('Full name').click()
    await page.getByRole('button', { name: 'Send request' }).click()
    const out = await recorded()
    expect(out.map((r) => r.step.type)).toEqual(['type', 'click'])
    expect(out[0].parameter).toEqual({ name: 'pw', label: 'Password', secret: true })
    expect(out[0].step).toMatchObject({ type: 'type', text: '{{pw}}' })
    expect(JSON.stringify(out)).not.toContain('hunter2')
  })

  it('records a native select by the option chosen, and an option of a library listbox as a click on it', async () => {
    await page.getByLabel('Room').selectOption({ label: 'Blue room' })
    await page.getByRole('option', { name: 'Large' }).click()
    expect((await recorded()).map((r) => r.step)).toEqual([
      { type: 'select', target: { by: 'role', value: 'combobox:Room' }, selector: '#room', option: 'Blue room' },
      { type: 'click', target: { by: 'role', value: 'option:Large' }, text: 'Large', selector: 'div:nth-of-type(3) > div' },
    ])
  })

  it('names an element whose name holds personal data by its selector only', async () => {
    await page.getByRole('button', { name: /Send to/ }).click()
    const out = await recorded()
    expect(out.map((r) => r.step)).toEqual([{ type: 'click', selector: 'div.actions:nth-of-type(2) > button.btn-send' }])
    expect(JSON.stringify(out)).not.toContain('grace@')
  })

  it('marks a value committed by Enter as submitted, and reports what is pending when recording stops', async () => {
    await page.getByLabel('Contact').click()
    await page.keyboard.type('x')
    await page.keyboard.press('Enter')
    await page.getByLabel('Full name').click()
    await page.keyboard.type('Ada')
    await page.evaluate(() => (window as unknown as { __stop: () => void }).__stop())
    expect((await recorded()).map((r) => r.step)).toEqual([
      { type: 'type', target: { by: 'role', value: 'textbox:Contact' }, selector: 'input[name="contact"]', text: '{{contact}}', clear: true, submit: true },
      { type: 'type', target: { by: 'role', value: 'textbox:Full name' }, selector: '#fullname', text: '{{fullname}}', clear: true },
    ])
  })
})

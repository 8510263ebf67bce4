import { build } from 'esbuild'
import type { Page } from 'playwright-core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { act, action, openFixture, useFixtureBrowser } from '../support/page-lib'

// Real Quill 2 and TipTap in the page, keys going the DOM way (no debugger): the editors' own state is the verdict.
const env = useFixtureBrowser()
let tiptap: Promise<string> | undefined
const tiptapSource = () =>
  (tiptap ??= build({
    stdin: { contents: "import { Editor } from '@tiptap/core'; import StarterKit from '@tiptap/starter-kit'; window.tiptap = new Editor({ element: document.querySelector('#tiptap'), extensions: [StarterKit], content: '<p>Meeting on Friday</p>' })", resolveDir: process.cwd() },
    bundle: true, format: 'iife', platform: 'browser', write: false, logLevel: 'silent',
  }).then((r) => r.outputFiles[0]!.text))

let page: Page
beforeEach(async () => {
  page = await openFixture(env.browser, env.fixtures, 'editors.html')
  await page.addScriptTag({ path: 'node_modules/quill/dist/quill.js' })
  await page.addScriptTag({ content: await tiptapSource() })
  await page.evaluate(() => {
    const w = window as any
    w.quill = new w.Quill('#quill', { theme: 'snow' })
    w.quill.setText('Thanks, see you Monday')
  })
})
afterEach(async () => page.close())

const press = (keys: string) => act(page, action('press', { params: { keys } }))
/** Puts the caret at the end of an editor's text, as a click there would. */
const caretAtEnd = (selector: string) =>
  page.evaluate((selector) => {
    const ed = document.querySelector(selector) as HTMLElement
    ed.focus()
    const p = ed.querySelector('p')!
    document.getSelection()!.setBaseAndExtent(p.firstChild!, p.textContent!.length, p.firstChild!, p.textContent!.length)
  }, selector)
const settle = () => page.waitForTimeout(50)

describe('editing keys in real editors with the DOM fallback', () => {
  it('TipTap: Shift+Arrow selects, the paste replaces the selection, Ctrl+Z undoes it, Ctrl+A selects everything', async () => {
    await caretAtEnd('#quill .ql-editor')
    await press('Control+Shift+ArrowLeft')
    expect(await press('Control+C')).toMatchObject({ status: 'done', command: { name: 'copy', via: 'dom' } })
    await caretAtEnd('#tiptap .ProseMirror')
    await settle()
    for (let i = 0; i < 6; i++) expect(await press('Shift+ArrowLeft')).toMatchObject({ status: 'done', command: { name: 'moveLeftAndModifySelection', via: 'dom' } })
    await settle()
    expect(await page.evaluate(() => { const s = (window as any).tiptap.state.selection; return (window as any).tiptap.state.doc.textBetween(s.from, s.to) })).toBe('Friday')
    expect(await press('Control+V')).toMatchObject({ status: 'done', command: { name: 'paste', via: 'dom' } })
    await settle()
    expect(await page.evaluate(() => (window as any).tiptap.getHTML())).toBe('<p>Meeting on Monday</p>')
    expect((await press('Control+Z')).status).toBe('done')
    await settle()
    expect(await page.evaluate(() => (window as any).tiptap.getHTML())).toBe('<p>Meeting on Friday</p>')
    expect((await press('Control+A')).status).toBe('done')
    await settle()
    expect(await page.evaluate(() => { const s = (window as any).tiptap.state.selection; return (window as any).tiptap.state.doc.textBetween(s.from, s.to) })).toBe('Meeting on Friday')
  })

  it('Quill: Ctrl+A, Ctrl+C, then a paste at the end says it twice; Shift+Arrow at the start is no effect', async () => {
    await caretAtEnd('#quill .ql-editor')
    expect((await press('Control+A')).status).toBe('done')
    expect((await press('Control+C')).status).toBe('done')
    await caretAtEnd('#quill .ql-editor')
    await settle()
    expect((await press('Control+V')).status).toBe('done')
    await settle()
    expect(await page.evaluate(() => (window as any).quill.getText())).toBe('Thanks, see you MondayThanks, see you Monday\n')
    await page.evaluate(() => (window as any).quill.setSelection(0, 0))
    const stuck = await press('Shift+ArrowLeft')
    expect(stuck.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { expected: 'the selection extended one character left', found: 'the selection unchanged at 0 (already at the start)' } })
  })
})

import type { Page } from 'playwright-core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { act, action, openFixture, useFixtureBrowser } from '../support/page-lib'

// Without the extension's debugger every key here goes the DOM way: the page's editing APIs do the command.
const env = useFixtureBrowser()
let page: Page
beforeEach(async () => {
  page = await openFixture(env.browser, env.fixtures, 'editing.html')
})
afterEach(async () => page.close())

const press = (keys: string) => act(page, action('press', { params: { keys } }))
const field = (selector: string) =>
  page.$eval(selector, (el: HTMLInputElement) => ({ value: el.value, start: el.selectionStart, end: el.selectionEnd }))
const rich = () =>
  page.evaluate(() => {
    const ed = document.querySelector('#editor')!
    return { text: ed.textContent, selected: document.getSelection()!.toString() }
  })
const caretAt = (selector: string, at: number) => page.$eval(selector, (el: HTMLInputElement, at) => (el.focus(), el.setSelectionRange(at, at)), at)

describe('editing keys with the DOM fallback, in native fields', () => {
  it('copies from one field and pastes into another, then undoes the paste', async () => {
    await page.focus('#source')
    expect(await press('Control+A')).toMatchObject({ status: 'done', input: 'dom', command: { name: 'selectAll', via: 'dom' } })
    expect(await field('#source')).toEqual({ value: 'hello world', start: 0, end: 11 })
    expect(await press('Control+C')).toMatchObject({ status: 'done', command: { name: 'copy', via: 'dom' } })
    await page.focus('#target')
    expect(await press('Control+V')).toMatchObject({ status: 'done', command: { name: 'paste', via: 'dom' } })
    expect(await field('#target')).toEqual({ value: 'hello world', start: 11, end: 11 })
    // The paste is an edit the page sees, and the browser's undo knows.
    expect(await page.textContent('#log')).toContain('input target insertText')
    expect(await press('Meta+Z')).toMatchObject({ status: 'done', command: { name: 'undo', via: 'dom' } })
    expect((await field('#target')).value).toBe('')
    expect(await press('Control+Shift+Z')).toMatchObject({ status: 'done', command: { name: 'redo', via: 'dom' } })
    expect((await field('#target')).value).toBe('hello world')
  })

  it('extends the selection with Shift+Arrow, Shift+Home and Ctrl+Shift+Arrow, cuts it and pastes it twice', async () => {
    await caretAt('#source', 5)
    expect(await press('Shift+ArrowLeft')).toMatchObject({ status: 'done', command: { name: 'moveLeftAndModifySelection' } })
    expect(await field('#source')).toMatchObject({ start: 4, end: 5 })
    await press('Shift+Home')
    expect(await field('#source')).toMatchObject({ start: 0, end: 5 })
    await caretAt('#source', 0)
    await press('Control+Shift+ArrowRight')
    expect(await field('#source')).toMatchObject({ start: 0, end: 5 })
    await press('Control+X')
    expect(await field('#source')).toEqual({ value: ' world', start: 0, end: 0 })
    await press('Control+V')
    await press('Control+V')
    expect((await field('#source')).value).toBe('hellohello world')
  })

  it('moves a textarea selection by lines', async () => {
    await caretAt('#notes', 3)
    await press('Shift+ArrowDown')
    expect(await field('#notes')).toMatchObject({ start: 3, end: 14 })
    await press('Shift+End')
    expect(await field('#notes')).toMatchObject({ start: 3, end: 22 })
  })

  it('reports a key that could change nothing as ACTION_NO_EFFECT, saying why', async () => {
    await caretAt('#source', 0)
    const stuck = await press('Shift+ArrowLeft')
    expect(stuck.status).toBe('failed')
    expect(stuck.errors[0]).toMatchObject({
      code: 'ACTION_NO_EFFECT',
      effect: { expected: 'the selection extended one character left', found: 'the selection unchanged at 0 (already at the start)' },
    })
    await page.focus('#target')
    expect((await press('Control+A')).errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { found: 'the field is empty: there is nothing to select' } })
    expect((await press('Backspace')).errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { expected: 'the character before the cursor deleted', found: 'the text unchanged (0 characters): the field is empty' } })
    expect((await press('Control+V')).errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { found: expect.stringContaining('nothing was copied') } })
    expect((await press('Control+Z')).errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { found: expect.stringContaining('nothing to undo') } })
    await caretAt('#source', 3)
    expect((await press('Control+C')).errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { found: 'nothing was selected to copy (the cursor at 3)' } })
    // Escape has no knowable effect in a field: it is not judged.
    expect(await press('Escape')).toMatchObject({ status: 'done' })
  })

  it('copies an email field, whose selection the browser hides, and does not judge its selection keys', async () => {
    await page.focus('#email')
    expect(await press('Control+A')).toMatchObject({ status: 'done' })
    expect(await press('Shift+ArrowLeft')).toMatchObject({ status: 'done' })
    expect(await press('Control+C')).toMatchObject({ status: 'done' })
    await page.focus('#target')
    await press('Control+V')
    expect((await field('#target')).value).toBe('ada@example.com')
  })

  it('never copies a password field, and never puts its value in what it reports', async () => {
    await page.focus('#secret')
    await press('Control+A')
    const copied = await press('Control+C')
    expect(copied.errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { found: "a password field's text is never copied" } })
    expect(JSON.stringify(copied)).not.toContain('hunter2')
    await page.focus('#target')
    expect((await press('Control+V')).status).toBe('failed')
    expect((await field('#target')).value).toBe('')
  })
})

describe('editing keys with the DOM fallback, in a contenteditable editor', () => {
  it('selects all, copies, extends with Shift+Arrow, pastes over it, and undoes', async () => {
    await page.focus('#editor')
    expect(await press('Control+A')).toMatchObject({ status: 'done', command: { name: 'selectAll', via: 'dom' } })
    expect(await rich()).toEqual({ text: 'Rich text here', selected: 'Rich text here' })
    expect((await press('Control+C')).status).toBe('done')
    await page.evaluate(() => {
      const text = document.querySelector('#editor p')!.firstChild!
      document.getSelection()!.setBaseAndExtent(text, 9, text, 9)
    })
    expect(await press('Shift+ArrowRight')).toMatchObject({ status: 'done', command: { name: 'moveRightAndModifySelection' } })
    expect(await press('Control+Shift+ArrowRight')).toMatchObject({ status: 'done' })
    expect((await rich()).selected).toBe(' here')
    expect(await press('Control+V')).toMatchObject({ status: 'done', command: { name: 'paste', via: 'dom' } })
    expect((await rich()).text).toBe('Rich textRich text here')
    expect(await page.textContent('#log')).toContain('input editor insertText')
    expect((await press('Control+Z')).status).toBe('done')
    expect((await rich()).text).toBe('Rich text here')
  })

  it('types and deletes in it, and says so when there is nothing to delete', async () => {
    await page.focus('#editor')
    await page.evaluate(() => {
      const text = document.querySelector('#editor p')!.firstChild!
      document.getSelection()!.setBaseAndExtent(text, 4, text, 4)
    })
    expect((await press('Backspace')).status).toBe('done')
    expect((await press('X')).status).toBe('done')
    expect((await rich()).text).toBe('RicX text here')
    await page.evaluate(() => {
      const ed = document.querySelector('#editor')!
      ed.innerHTML = '<p><br></p>'
      document.getSelection()!.setBaseAndExtent(ed.firstChild!, 0, ed.firstChild!, 0)
    })
    expect((await press('Backspace')).errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { found: expect.stringContaining('the field is empty') } })
  })
})

describe('keys the page handles itself', () => {
  it('does not call a Backspace the page cancelled and acted on (a tag input removing its last tag) no effect', async () => {
    await page.evaluate(() => {
      const tags = document.createElement('ul')
      tags.id = 'tags'
      tags.innerHTML = '<li>red</li><li>blue</li>'
      document.body.append(tags)
      document.querySelector('#target')!.addEventListener('keydown', (e) => {
        if ((e as KeyboardEvent).key === 'Backspace' && !(e.target as HTMLInputElement).value) (e.preventDefault(), tags.lastElementChild?.remove())
      })
    })
    await page.focus('#target')
    expect(await press('Backspace')).toMatchObject({ status: 'done' })
    expect(await page.textContent('#tags')).toBe('red')
  })

  it('does not call a Delete that changed the page elsewhere no effect, even when the page did not cancel it', async () => {
    await page.evaluate(() => {
      const rows = document.createElement('ul')
      rows.id = 'rows'
      rows.innerHTML = '<li>one</li><li>two</li>'
      document.body.append(rows)
      document.querySelector('#target')!.addEventListener('keydown', (e) => {
        if ((e as KeyboardEvent).key === 'Delete') setTimeout(() => rows.lastElementChild?.remove(), 50)
      })
    })
    await page.focus('#target')
    expect(await press('Delete')).toMatchObject({ status: 'done' })
    expect(await page.textContent('#rows')).toBe('one')
    // Nothing anywhere: the truth is no effect.
    await page.focus('#source')
    await page.$eval('#source', (el: HTMLInputElement) => el.setSelectionRange(11, 11))
    expect((await press('Delete')).errors[0]).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { found: 'the text unchanged (11 characters): nothing after the cursor' } })
  })
})

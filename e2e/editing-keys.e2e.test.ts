import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { ScriptStep } from '#protocol'
import { observationsByAction } from './support/harness'
import { useHarness } from './support/use-harness'

// Chrome's extension API, inside the service worker's evaluate.
declare const chrome: any

const h = useHarness()

const press = (keys: string): ScriptStep => ({ type: 'press', keys }) as ScriptStep
const click = (selector: string): ScriptStep => ({ type: 'click', selector }) as ScriptStep

/**
 * A person's editing by keys: copy a field's text and paste it into another, select part of it with Shift+Arrow
 * and replace it, undo; then the same in a contenteditable editor. The last key cannot do anything.
 */
const SCRIPT: ScriptStep[] = [
  click('#source'),
  press('Control+A'),
  press('Control+C'),
  click('#target'),
  press('Control+V'),
  press('Shift+ArrowLeft'),
  press('Shift+ArrowLeft'),
  press('Control+Shift+ArrowLeft'),
  // "hello world" with "world" selected: the paste replaces it, and the undo brings it back.
  press('Control+V'),
  press('Control+Z'),
  click('#editor'),
  press('Control+A'),
  press('Control+V'),
  press('Shift+ArrowLeft'),
  press('Shift+Home'),
  press('Backspace'),
  press('Control+Z'),
  click('#empty'),
  press('Backspace'),
]

async function editingTab(): Promise<Page> {
  const tab = h.ext.context.pages().find((p) => p.url().endsWith('/editing'))
  if (!tab) throw new Error('no /editing tab')
  return tab
}

const state = (tab: Page) =>
  tab.evaluate(() => ({
    source: (document.querySelector('#source') as HTMLInputElement).value,
    target: (document.querySelector('#target') as HTMLInputElement).value,
    editor: document.querySelector('#editor')!.textContent,
    empty: (document.querySelector('#empty') as HTMLInputElement).value,
  }))

async function runEditing(taskId: string, via: 'cdp' | 'dom') {
  const view = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED', 'PAUSED'], 90_000)
  const steps = view.steps.map((s) => `${s.type} ${s.outcome} ${s.errors.map((e) => `${e.code}: ${e.message}`).join('; ')}`)
  // The page's verdict, from the edits it reported and what its fields hold now.
  const hits = h.site.hits
  expect(hits, steps.join('\n')).toContain('target:hello world')
  expect(hits).toContain('target:hello hello world')
  expect(hits).toContain('editor:hello world')
  expect(hits).toContain('editor:')
  expect(hits.filter((w) => w.startsWith('source:'))).toEqual([])
  expect(await state(await editingTab())).toEqual({ source: 'hello world', target: 'hello world', editor: 'hello world', empty: '' })

  // Every key before the last did what it should; the last, Backspace in an empty field, says it could not.
  const presses = view.steps.filter((s) => s.type === 'press')
  expect(presses.slice(0, -1).map((s) => s.outcome), steps.join('\n')).toEqual(presses.slice(0, -1).map(() => 'done'))
  const last = presses.at(-1)!
  expect(last.errors.find((e) => e.code === 'ACTION_NO_EFFECT'), steps.join('\n')).toMatchObject({ code: 'ACTION_NO_EFFECT', effect: { expected: 'the character before the cursor deleted', found: expect.stringContaining('the field is empty') } })
  expect(view.task.status).not.toBe('SUCCEEDED')

  // The steps say which editing command ran, and how.
  const observed = observationsByAction(await h.audit(taskId))
  const commands = presses.map((s) => observed.get(s.actionId)?.at(-1)?.data as { input?: string; command?: { name: string; via: string } } | undefined)
  expect(commands.map((d) => d?.command?.name)).toEqual([
    'selectAll', 'copy', 'paste', 'moveLeftAndModifySelection', 'moveLeftAndModifySelection', 'moveWordLeftAndModifySelection', 'paste', 'undo',
    'selectAll', 'paste', 'moveLeftAndModifySelection', 'moveToBeginningOfLineAndModifySelection', undefined, 'undo', undefined,
  ])
  expect(new Set(commands.filter((d) => d?.command).map((d) => d!.command!.via))).toEqual(new Set([via]))
  expect(new Set(commands.map((d) => d?.input))).toEqual(new Set([via]))
}

describe('editing keys', () => {
  it('copies, pastes, selects with Shift+Arrow, replaces and undoes through the debugger’s keys', async () => {
    h.site.reset()
    const taskId = await h.runScript(SCRIPT, `${h.site.url}/editing`)
    await runEditing(taskId, 'cdp')
    await (await editingTab()).close()
  })

  it('does the same with the page’s editing APIs when the person declined debugging the tab', async () => {
    h.site.reset()
    const tab = await h.ext.context.newPage()
    await tab.goto(`${h.site.url}/editing`)
    await tab.bringToFront()
    const sw = await h.ext.worker()
    await sw.evaluate(async (url) => {
      const [found] = await chrome.tabs.query({ url, active: true })
      await chrome.storage.session.set({ 'tandem.debugger.declined': [found!.id] })
    }, `${h.site.url}/editing`)
    try {
      const taskId = await h.runScript(SCRIPT)
      await runEditing(taskId, 'dom')
    } finally {
      await sw.evaluate(() => chrome.storage.session.remove('tandem.debugger.declined'))
      await tab.close()
    }
  })
})

import { describe, expect, it, vi } from 'vitest'
import { createTabDebugger, type DeclinedTabs } from '../lib/executor/debugger'
import { createTrustedInput, InputCutShort } from '../lib/executor/trusted-input'
import { EMPTY_STATE, type ExecutorState } from '../lib/executor/state'
import { onInputRequest } from '../lib/worker/on-input-request'
import { parseChord } from '../lib/page/actions/press'
import { strokeOf } from '../lib/page/input'

/** chrome.debugger as Chrome answers (see debugger.test.ts): commands to a tab not attached fail until it is. */
function fakeChromeDebugger(opts: { fail?: (method: string, params: Record<string, unknown>) => boolean; others?: number[] } = {}) {
  const ours = new Set<number>()
  const sent: { method: string; params: Record<string, unknown> }[] = []
  const api = {
    attach: vi.fn(async ({ tabId }: { tabId?: number }) => {
      if (opts.others?.includes(tabId!)) throw new Error(`Another debugger is already attached to the tab with id: ${tabId}.`)
      ours.add(tabId!)
    }),
    detach: vi.fn(async ({ tabId }: { tabId?: number }) => void ours.delete(tabId!)),
    sendCommand: vi.fn(async ({ tabId }: { tabId?: number }, method: string, params?: object) => {
      if (!ours.has(tabId!)) throw new Error(`Debugger is not attached to the tab with id: ${tabId}.`)
      const p = (params ?? {}) as Record<string, unknown>
      if (opts.fail?.(method, p)) throw new Error('Cannot dispatch input to a detached frame')
      sent.push({ method, params: p })
      return {}
    }),
    getTargets: vi.fn(async () => []),
  }
  return { api, sent, ours }
}

function setup(opts: Parameters<typeof fakeChromeDebugger>[0] & { declined?: number[] } = {}) {
  const chrome = fakeChromeDebugger(opts)
  let declinedTabs = opts.declined ?? []
  const declined: DeclinedTabs = { get: async () => declinedTabs, set: async (ids) => void (declinedTabs = ids) }
  const tabDebugger = createTabDebugger({ debugger: chrome.api as never, declined })
  const input = createTrustedInput({ debugger: tabDebugger, pause: async () => undefined, dragSteps: 4 })
  const mouse = () => chrome.sent.filter((c) => c.method === 'Input.dispatchMouseEvent').map((c) => c.params)
  return { ...chrome, input, mouse }
}

describe('trusted input through the debugger', () => {
  it('clicks at the point the page checked: moved, pressed and released with the left button, attaching the tab first', async () => {
    const { input, mouse, api } = setup()
    expect(await input.dispatch(7, { kind: 'click', at: { x: 120.5, y: 40 } })).toBe(true)
    expect(api.attach).toHaveBeenCalledWith({ tabId: 7 }, '1.3')
    expect(mouse()).toEqual([
      { type: 'mouseMoved', x: 120.5, y: 40 },
      { type: 'mousePressed', x: 120.5, y: 40, button: 'left', buttons: 1, clickCount: 1 },
      { type: 'mouseReleased', x: 120.5, y: 40, button: 'left', buttons: 0, clickCount: 1 },
    ])
  })

  it('double-clicks as Chrome does: two presses and releases at one point, counted 1 then 2 (the second makes the dblclick)', async () => {
    const { input, mouse } = setup()
    expect(await input.dispatch(7, { kind: 'click', at: { x: 30, y: 40 }, count: 2 })).toBe(true)
    expect(mouse()).toEqual([
      { type: 'mouseMoved', x: 30, y: 40 },
      { type: 'mousePressed', x: 30, y: 40, button: 'left', buttons: 1, clickCount: 1 },
      { type: 'mouseReleased', x: 30, y: 40, button: 'left', buttons: 0, clickCount: 1 },
      { type: 'mousePressed', x: 30, y: 40, button: 'left', buttons: 1, clickCount: 2 },
      { type: 'mouseReleased', x: 30, y: 40, button: 'left', buttons: 0, clickCount: 2 },
    ])
  })

  it('right-clicks with the secondary button held while pressed', async () => {
    const { input, mouse } = setup()
    expect(await input.dispatch(7, { kind: 'click', at: { x: 5, y: 6 }, button: 'right' })).toBe(true)
    expect(mouse()).toEqual([
      { type: 'mouseMoved', x: 5, y: 6 },
      { type: 'mousePressed', x: 5, y: 6, button: 'right', buttons: 2, clickCount: 1 },
      { type: 'mouseReleased', x: 5, y: 6, button: 'right', buttons: 0, clickCount: 1 },
    ])
  })

  it('hovers with one move and nothing pressed', async () => {
    const { input, mouse } = setup()
    expect(await input.dispatch(7, { kind: 'hover', at: { x: 5, y: 6 } })).toBe(true)
    expect(mouse()).toEqual([{ type: 'mouseMoved', x: 5, y: 6 }])
  })

  it('drags: pressed on the source, moved in steps with the button held, released on the target', async () => {
    const { input, mouse } = setup()
    expect(await input.dispatch(7, { kind: 'drag', from: { x: 100, y: 100 }, to: { x: 100, y: 300 } })).toBe(true)
    const events = mouse()
    expect(events[0]).toEqual({ type: 'mouseMoved', x: 100, y: 100 })
    expect(events[1]).toMatchObject({ type: 'mousePressed', x: 100, y: 100, button: 'left', buttons: 1 })
    const moves = events.slice(2, -1)
    expect(moves.length).toBeGreaterThanOrEqual(5)
    expect(moves.every((m) => m.type === 'mouseMoved' && m.buttons === 1 && m.button === 'left')).toBe(true)
    // Each move goes further; the last is on the target.
    const ys = moves.map((m) => m.y as number)
    expect(ys).toEqual([...ys].sort((a, b) => a - b))
    expect(moves.at(-1)).toMatchObject({ x: 100, y: 300 })
    expect(events.at(-1)).toEqual({ type: 'mouseReleased', x: 100, y: 300, button: 'left', buttons: 0, clickCount: 1 })
  })

  it('drags an HTML5 draggable as the browser’s own drag: intercepted once it starts, then carried to the target and dropped', async () => {
    const chrome = fakeChromeDebugger()
    const listeners = new Set<(source: { tabId?: number }, method: string, params?: unknown) => void>()
    const data = { items: [{ mimeType: 'text/plain', data: 'n-Three' }], dragOperationsMask: 1 }
    // The browser starts its drag on the first move with the button down, and hands it over.
    chrome.api.sendCommand.mockImplementation(async ({ tabId }: { tabId?: number }, method: string, params?: object) => {
      if (!chrome.ours.has(tabId!)) throw new Error(`Debugger is not attached to the tab with id: ${tabId}.`)
      const p = (params ?? {}) as Record<string, unknown>
      chrome.sent.push({ method, params: p })
      if (p.type === 'mouseMoved' && p.buttons === 1) for (const l of listeners) l({ tabId }, 'Input.dragIntercepted', { data })
      return {}
    })
    const tabDebugger = createTabDebugger({ debugger: chrome.api as never, declined: { get: async () => [], set: async () => undefined } })
    const events = { addListener: (l: never) => void listeners.add(l), removeListener: (l: never) => void listeners.delete(l) }
    const input = createTrustedInput({ debugger: tabDebugger, events, pause: async () => undefined, dragSteps: 4 })
    expect(await input.dispatch(7, { kind: 'drag', from: { x: 50, y: 300 }, to: { x: 50, y: 100 }, html5: true })).toBe(true)
    const calls = chrome.sent.map((c) => `${c.method.replace('Input.', '')} ${String(c.params.type ?? c.params.enabled)}`)
    expect(calls[0]).toBe('setInterceptDrags true')
    expect(calls.slice(1, 4)).toEqual(['dispatchMouseEvent mouseMoved', 'dispatchMouseEvent mousePressed', 'dispatchMouseEvent mouseMoved'])
    expect(calls.at(-1)).toBe('setInterceptDrags false')
    const drags = chrome.sent.filter((c) => c.method === 'Input.dispatchDragEvent')
    expect(drags[0]!.params).toEqual({ type: 'dragEnter', x: 50, y: 100, data, modifiers: 0 })
    expect(drags.at(-1)!.params).toEqual({ type: 'drop', x: 50, y: 100, data, modifiers: 0 })
    expect(drags.slice(1, -1).every((d) => d.params.type === 'dragOver')).toBe(true)
    expect(listeners.size).toBe(0)
  })

  it('without the debugger’s events, an HTML5 drag is left to DOM events', async () => {
    const { input, sent } = setup()
    expect(await input.dispatch(7, { kind: 'drag', from: { x: 1, y: 1 }, to: { x: 1, y: 50 }, html5: true })).toBe(false)
    expect(sent).toEqual([])
  })

  it('presses keys with their code, virtual key code and modifiers; a key that types carries its text', async () => {
    const { input, sent } = setup()
    await input.dispatch(7, {
      kind: 'keys',
      keys: [
        { key: 'a', code: 'KeyA', keyCode: 65, modifiers: 2 },
        { key: 'Enter', code: 'Enter', keyCode: 13, modifiers: 0, text: '\r' },
      ],
    })
    expect(sent.map((c) => [c.method, c.params.type, c.params.key])).toEqual([
      ['Input.dispatchKeyEvent', 'rawKeyDown', 'a'],
      ['Input.dispatchKeyEvent', 'keyUp', 'a'],
      ['Input.dispatchKeyEvent', 'keyDown', 'Enter'],
      ['Input.dispatchKeyEvent', 'keyUp', 'Enter'],
    ])
    expect(sent[0]!.params).toMatchObject({ code: 'KeyA', windowsVirtualKeyCode: 65, modifiers: 2 })
    expect(sent[0]!.params.text).toBeUndefined()
    expect(sent[2]!.params).toMatchObject({ text: '\r', windowsVirtualKeyCode: 13 })
  })

  it('sends an editing key with its browser command on the key down, so copy, paste and selection work on any platform', async () => {
    const { input, sent } = setup()
    const chords = ['Control+C', 'Meta+V', 'Control+A', 'Control+X', 'Control+Z', 'Meta+Shift+Z', 'Control+Y', 'Shift+ArrowLeft', 'Control+Shift+ArrowRight', 'Shift+End', 'Control+Shift+Home', 'Shift+ArrowDown', 'Meta+Shift+ArrowLeft', 'Alt+Shift+ArrowLeft']
    await input.dispatch(7, { kind: 'keys', keys: chords.map((c) => strokeOf(parseChord(c))) })
    const downs = sent.filter((c) => c.params.type !== 'keyUp')
    expect(downs.map((c) => [String(c.params.key).length === 1 ? String(c.params.key).toLowerCase() : c.params.key, c.params.modifiers, c.params.commands])).toEqual([
      ['c', 2, ['copy']],
      ['v', 4, ['paste']],
      ['a', 2, ['selectAll']],
      ['x', 2, ['cut']],
      ['z', 2, ['undo']],
      ['z', 12, ['redo']],
      ['y', 2, ['redo']],
      ['ArrowLeft', 8, ['moveLeftAndModifySelection']],
      ['ArrowRight', 10, ['moveWordRightAndModifySelection']],
      ['End', 8, ['moveToEndOfLineAndModifySelection']],
      ['Home', 10, ['moveToBeginningOfDocumentAndModifySelection']],
      ['ArrowDown', 8, ['moveDownAndModifySelection']],
      ['ArrowLeft', 12, ['moveToBeginningOfLineAndModifySelection']],
      ['ArrowLeft', 9, ['moveWordLeftAndModifySelection']],
    ])
    expect(downs.every((c) => c.params.type === 'rawKeyDown')).toBe(true)
    // The key up carries no command: the browser would run it twice.
    expect(sent.filter((c) => c.params.type === 'keyUp').some((c) => 'commands' in c.params)).toBe(false)
  })

  it('sends no command with a key that has none (typing, Enter, a plain arrow, Ctrl+B)', async () => {
    const { input, sent } = setup()
    await input.dispatch(7, { kind: 'keys', keys: ['a', 'Enter', 'ArrowLeft', 'Control+B', 'Shift+Tab'].map((c) => strokeOf(parseChord(c))) })
    expect(sent.some((c) => 'commands' in c.params)).toBe(false)
  })

  it('types text with one insertText', async () => {
    const { input, sent } = setup()
    expect(await input.dispatch(7, { kind: 'text', text: 'héllo 世界' })).toBe(true)
    expect(sent).toEqual([{ method: 'Input.insertText', params: { text: 'héllo 世界' } }])
  })

  it('says "not sent" and sends nothing when the person declined debugging or another debugger holds the tab', async () => {
    const declined = setup({ declined: [7] })
    expect(await declined.input.dispatch(7, { kind: 'click', at: { x: 1, y: 1 } })).toBe(false)
    expect(declined.api.sendCommand).toHaveBeenCalledTimes(1)
    expect(declined.sent).toEqual([])
    const busy = setup({ others: [7] })
    expect(await busy.input.dispatch(7, { kind: 'text', text: 'x' })).toBe(false)
    expect(busy.sent).toEqual([])
  })

  it('leaves clicks, hovers and drags on a zoomed tab to DOM events (its points would land beside the element); keys and text still go', async () => {
    const chrome = fakeChromeDebugger()
    const tabDebugger = createTabDebugger({ debugger: chrome.api as never, declined: { get: async () => [], set: async () => undefined } })
    const input = createTrustedInput({ debugger: tabDebugger, pause: async () => undefined, zoom: async () => 1.25 })
    expect(await input.dispatch(7, { kind: 'click', at: { x: 1, y: 1 } })).toBe(false)
    expect(await input.dispatch(7, { kind: 'hover', at: { x: 1, y: 1 } })).toBe(false)
    expect(await input.dispatch(7, { kind: 'drag', from: { x: 1, y: 1 }, to: { x: 1, y: 9 } })).toBe(false)
    expect(chrome.sent).toEqual([])
    expect(await input.dispatch(7, { kind: 'text', text: 'x' })).toBe(true)
    const unzoomed = createTrustedInput({ debugger: tabDebugger, pause: async () => undefined, zoom: async () => 1 })
    expect(await unzoomed.dispatch(7, { kind: 'click', at: { x: 1, y: 1 } })).toBe(true)
  })

  it('says "not sent" when the browser refuses the first command, so the page falls back to DOM events', async () => {
    const { input, sent } = setup({ fail: () => true })
    expect(await input.dispatch(7, { kind: 'click', at: { x: 1, y: 1 } })).toBe(false)
    expect(await input.dispatch(7, { kind: 'keys', keys: [{ key: 'Tab', code: 'Tab', keyCode: 9, modifiers: 0 }] })).toBe(false)
    expect(sent).toEqual([])
  })

  it('fails (never falls back, which would click twice) when a click broke off after the press, and lets the button go', async () => {
    let releases = 0
    const { input, mouse } = setup({ fail: (_m, p) => p.type === 'mouseReleased' && releases++ === 0 })
    await expect(input.dispatch(7, { kind: 'click', at: { x: 3, y: 4 } })).rejects.toBeInstanceOf(InputCutShort)
    expect(mouse().map((m) => m.type)).toEqual(['mouseMoved', 'mousePressed', 'mouseReleased'])
  })

  it('fails a double click cut short after its first click, never sending it again as DOM events', async () => {
    const { input, mouse } = setup({ fail: (_m, p) => p.type === 'mousePressed' && p.clickCount === 2 })
    await expect(input.dispatch(7, { kind: 'click', at: { x: 3, y: 4 }, count: 2 })).rejects.toThrow(/double click was cut short/)
    expect(mouse().map((m) => `${m.type}:${m.clickCount ?? ''}`)).toEqual(['mouseMoved:', 'mousePressed:1', 'mouseReleased:1', 'mouseReleased:2'])
  })
})

describe('the page’s requests for trusted input', () => {
  const ID = 'ext'
  const ORIGIN = 'chrome-extension://ext/'
  const state: ExecutorState = {
    ...EMPTY_STATE,
    inflight: { taskId: 't1', actionId: 'a1', type: 'type', tabId: 7, startedAt: 0, graceMs: 1000, phase: 'started' },
    tasks: { t1: { tabId: 7, closed: false, at: 0 } },
  }
  const from = (tabId: number, frameId = 0) => ({ id: ID, tab: { id: tabId } as never, frameId, url: 'https://shop.test/login' })

  async function ask(message: unknown, sender: ReturnType<typeof from>, current = state) {
    const dispatch = vi.fn(async () => true)
    const reply = vi.fn()
    const open = onInputRequest({ input: { dispatch }, readState: async () => current }, ID, ORIGIN)(message, sender, reply)
    if (open) await vi.waitFor(() => expect(reply).toHaveBeenCalled())
    return { open, dispatch, reply: reply.mock.calls[0]?.[0] }
  }

  it('sends the running step’s gesture to its own tab', async () => {
    const gesture = { kind: 'text', text: 'hunter2' }
    const { dispatch, reply } = await ask({ kind: 'input', actionId: 'a1', gesture }, from(7))
    expect(dispatch).toHaveBeenCalledWith(7, gesture)
    expect(reply).toEqual({ sent: true })
    // A double and a right click pass as clicks with their count and button; a triple click is no gesture.
    for (const click of [{ kind: 'click', at: { x: 1, y: 2 }, count: 2 }, { kind: 'click', at: { x: 1, y: 2 }, button: 'right' }]) {
      expect((await ask({ kind: 'input', actionId: 'a1', gesture: click }, from(7))).dispatch).toHaveBeenCalledWith(7, click)
    }
    expect((await ask({ kind: 'input', actionId: 'a1', gesture: { kind: 'click', at: { x: 1, y: 2 }, count: 3 } }, from(7))).open).toBe(false)
  })

  it('sends nothing for another tab, another step, a step that ended, or a frame', async () => {
    const message = { kind: 'input', actionId: 'a1', gesture: { kind: 'hover', at: { x: 1, y: 1 } } }
    expect((await ask(message, from(8))).reply).toEqual({ sent: false })
    expect((await ask({ ...message, actionId: 'a0' }, from(7))).reply).toEqual({ sent: false })
    expect((await ask(message, from(7), { ...state, inflight: { ...state.inflight!, phase: 'finished' } })).reply).toEqual({ sent: false })
    expect((await ask(message, from(7), { ...state, inflight: null })).reply).toEqual({ sent: false })
    expect((await ask(message, from(7, 3))).open).toBe(false)
    expect((await ask({ kind: 'input', actionId: 'a1', gesture: { kind: 'click' } }, from(7))).open).toBe(false)
  })

  it('never logs what is typed, even when the input fails', async () => {
    const logs = [vi.spyOn(console, 'log'), vi.spyOn(console, 'warn'), vi.spyOn(console, 'error'), vi.spyOn(console, 'info'), vi.spyOn(console, 'debug')]
    const { input } = setup({ fail: (method) => method === 'Input.insertText' })
    const reply = vi.fn()
    onInputRequest({ input, readState: async () => state }, ID, ORIGIN)({ kind: 'input', actionId: 'a1', gesture: { kind: 'text', text: 'S3cret-pass' } }, from(7), reply)
    await vi.waitFor(() => expect(reply).toHaveBeenCalledWith({ sent: false }))
    for (const log of logs) expect(JSON.stringify(log.mock.calls)).not.toContain('S3cret-pass')
  })
})

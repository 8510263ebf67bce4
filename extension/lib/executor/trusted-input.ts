import type { InputGesture } from '../page/input'
import type { TabDebugger } from './debugger'

type DebuggerEvent = (source: { tabId?: number; sessionId?: string }, method: string, params?: unknown) => void

export interface TrustedInputDeps {
  debugger: Pick<TabDebugger, 'send'>
  /** chrome.debugger.onEvent: an HTML5 drag waits there for the browser to start its drag (Input.dragIntercepted). */
  events?: { addListener(cb: DebuggerEvent): void; removeListener(cb: DebuggerEvent): void }
  /** Waits between a drag's moves: pointer libraries follow a pointer that travels over time, not one that jumps. */
  pause?: (ms: number) => Promise<void>
  /** How many moves a drag makes between the press and the release. */
  dragSteps?: number
  /** The tab's zoom (tabs.getZoom): the page measured its points unzoomed, so only then do they land where it checked. */
  zoom?: (tabId: number) => Promise<number>
}

/** The input broke off after part of it reached the page: running it again as DOM events could do it twice. */
export class InputCutShort extends Error {
  constructor(what: string, why = 'was cut short after it started') {
    super(`The ${what} ${why}; look at the page before trying again.`)
    this.name = 'InputCutShort'
  }
}

type Point = { x: number; y: number }
const LEFT = { button: 'left' } as const

/**
 * Real input on a task's tab through the debugger (CDP Input.*): events the page sees as `isTrusted`, hover
 * states and focus as a person's. The page has already found the element, checked it can be acted on, and
 * refused a risky step without approval; this only delivers what it asked for at the point it checked.
 * `dispatch` resolves false when the first command could not be sent (no debugger for the tab: declined, another
 * debugger, a browser that refuses), so nothing reached the page and it falls back to DOM events.
 */
export function createTrustedInput(deps: TrustedInputDeps) {
  const pause = deps.pause ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const steps = deps.dragSteps ?? 10

  const mouse = (tabId: number, type: 'mouseMoved' | 'mousePressed' | 'mouseReleased', at: Point, extra: Record<string, unknown> = {}) =>
    deps.debugger.send(tabId, 'Input.dispatchMouseEvent', { type, x: at.x, y: at.y, ...extra })

  /** Runs the commands in order: false when the first failed, InputCutShort when a later one did. */
  async function inOrder(what: string, commands: (() => Promise<unknown>)[], cleanup?: () => Promise<unknown>): Promise<boolean> {
    for (const [i, command] of commands.entries()) {
      try {
        await command()
      } catch {
        if (i === 0) return false
        // A pressed button or key left down would stay down for the person: let it go if the debugger still answers.
        await cleanup?.().catch(() => undefined)
        throw new InputCutShort(what)
      }
    }
    return true
  }

  /**
   * A click as Chrome sends a person's: a double click is two presses and releases at one point, counted 1 then 2
   * (the second release makes the `dblclick`); the right button's press makes the `contextmenu`.
   */
  async function click(tabId: number, gesture: Extract<InputGesture, { kind: 'click' }>): Promise<boolean> {
    const { at, button = 'left', count = 1 } = gesture
    const what = count === 2 ? 'double click' : button === 'right' ? 'right click' : 'click'
    // Moving there first is what a person's hand does: hover styles and menus that open on enter see it.
    if (!(await inOrder(what, [() => mouse(tabId, 'mouseMoved', at)]))) return false
    const down = { button, buttons: button === 'right' ? 2 : 1 }
    const up = { button, buttons: 0 }
    const presses = [1, 2].slice(0, count).flatMap((clickCount) => [
      () => mouse(tabId, 'mousePressed', at, { ...down, clickCount }),
      () => mouse(tabId, 'mouseReleased', at, { ...up, clickCount }),
    ])
    return inOrder(what, presses, () => mouse(tabId, 'mouseReleased', at, { ...up, clickCount: count }))
  }

  /** The pointer's way from one point to the other: a few pixels first (sensors start a drag only past ~5 px), then in steps. */
  function path(from: Point, to: Point): Point[] {
    const nudge = { x: from.x + Math.sign(to.x - from.x) * 2, y: from.y + Math.sign(to.y - from.y) * 8 }
    return [nudge, ...Array.from({ length: steps }, (_, i) => ({ x: from.x + ((to.x - from.x) * (i + 1)) / steps, y: from.y + ((to.y - from.y) * (i + 1)) / steps })), to]
  }

  async function drag(tabId: number, from: Point, to: Point): Promise<boolean> {
    if (!(await inOrder('drag', [() => mouse(tabId, 'mouseMoved', from)]))) return false
    const release = () => mouse(tabId, 'mouseReleased', to, { ...LEFT, buttons: 0, clickCount: 1 })
    const moves: (() => Promise<unknown>)[] = [() => mouse(tabId, 'mousePressed', from, { ...LEFT, buttons: 1, clickCount: 1 })]
    for (const at of path(from, to)) {
      moves.push(async () => {
        await pause(20)
        return mouse(tabId, 'mouseMoved', at, { ...LEFT, buttons: 1 })
      })
    }
    // Sortable lists animate the items out of the way; the drop lands where they settled.
    moves.push(async () => {
      await pause(120)
      return release()
    })
    return inOrder('drag', moves, release)
  }

  /**
   * An HTML5 drag: the debugger's mouse starts the browser's own drag, which it hands over instead of running it
   * (Input.setInterceptDrags), and the drag is then carried to the target and dropped (Input.dispatchDragEvent),
   * with what the page put in its DataTransfer.
   */
  async function nativeDrag(tabId: number, from: Point, to: Point): Promise<boolean> {
    const events = deps.events
    if (!events) return false
    let data: unknown
    let started = () => {}
    const intercepted = new Promise<void>((resolve) => (started = resolve))
    const listener: DebuggerEvent = (source, method, params) => {
      if (source.tabId !== tabId || source.sessionId || method !== 'Input.dragIntercepted') return
      data = (params as { data?: unknown } | undefined)?.data
      started()
    }
    try {
      await deps.debugger.send(tabId, 'Input.setInterceptDrags', { enabled: true })
    } catch {
      return false
    }
    events.addListener(listener)
    const release = () => mouse(tabId, 'mouseReleased', from, { ...LEFT, buttons: 0, clickCount: 1 })
    try {
      if (!(await inOrder('drag', [() => mouse(tabId, 'mouseMoved', from)]))) return false
      const dragged = await inOrder('drag', [() => mouse(tabId, 'mousePressed', from, { ...LEFT, buttons: 1, clickCount: 1 }), ...path(from, to).slice(0, 3).map((at) => async () => {
        await pause(20)
        if (!data) await mouse(tabId, 'mouseMoved', at, { ...LEFT, buttons: 1 })
      })], release)
      if (!dragged) return false
      if (!data) await Promise.race([intercepted, pause(1000)])
      if (!data) {
        await release().catch(() => undefined)
        throw new InputCutShort('drag', 'was pressed and moved, but the page started no drag')
      }
      const drop = (type: 'dragEnter' | 'dragOver' | 'drop', at: Point) => () => deps.debugger.send(tabId, 'Input.dispatchDragEvent', { type, x: at.x, y: at.y, data, modifiers: 0 })
      const over = path(from, to).slice(3).map((at) => async () => (await pause(20), drop('dragOver', at)()))
      // The page has its drag by now: a failure from here on is one halfway (the leading no-op makes inOrder say so).
      await inOrder('drag', [() => Promise.resolve(), drop('dragEnter', to), ...over, drop('dragOver', to), drop('drop', to)])
      // No mouseReleased: the drop is what a person's release over the target does in a native drag, and ends it.
      return true
    } finally {
      events.removeListener(listener)
      await deps.debugger.send(tabId, 'Input.setInterceptDrags', { enabled: false }).catch(() => undefined)
    }
  }

  function keys(tabId: number, strokes: Extract<InputGesture, { kind: 'keys' }>['keys']): Promise<boolean> {
    const commands: (() => Promise<unknown>)[] = []
    for (const s of strokes) {
      const common = { key: s.key, code: s.code, windowsVirtualKeyCode: s.keyCode, nativeVirtualKeyCode: s.keyCode, modifiers: s.modifiers }
      // A key that types sends `text` (the browser makes the keypress and the input); others are raw. An editing
      // key carries its command (copy, paste, selectAll…): the browser runs it unless the page cancels the keydown,
      // on every platform (a Mac's Cmd+C is its menu's, which a debugger's key never reaches).
      const edit = s.commands?.length ? { commands: s.commands } : {}
      commands.push(() => deps.debugger.send(tabId, 'Input.dispatchKeyEvent', { type: s.text ? 'keyDown' : 'rawKeyDown', ...common, ...(s.text ? { text: s.text, unmodifiedText: s.text } : {}), ...edit }))
      commands.push(() => deps.debugger.send(tabId, 'Input.dispatchKeyEvent', { type: 'keyUp', ...common }))
    }
    const last = strokes.at(-1)!
    return inOrder('key press', commands, () =>
      deps.debugger.send(tabId, 'Input.dispatchKeyEvent', { type: 'keyUp', key: last.key, code: last.code, windowsVirtualKeyCode: last.keyCode, modifiers: last.modifiers }),
    )
  }

  return {
    /** Sends one gesture to the tab; never logs what it types (it may be a password). */
    async dispatch(tabId: number, gesture: InputGesture): Promise<boolean> {
      const pointing = gesture.kind === 'click' || gesture.kind === 'hover' || gesture.kind === 'drag'
      // A zoomed tab (or one whose zoom cannot be read) gets DOM events, which need no point, rather than a click beside the element.
      if (pointing && deps.zoom && Math.abs((await deps.zoom(tabId).catch(() => NaN)) - 1) > 0.001) return false
      switch (gesture.kind) {
        case 'click':
          return click(tabId, gesture)
        case 'hover':
          return inOrder('hover', [() => mouse(tabId, 'mouseMoved', gesture.at)])
        case 'drag':
          return gesture.html5 ? nativeDrag(tabId, gesture.from, gesture.to) : drag(tabId, gesture.from, gesture.to)
        case 'keys':
          return keys(tabId, gesture.keys)
        case 'text':
          return inOrder('typing', [() => deps.debugger.send(tabId, 'Input.insertText', { text: gesture.text })])
      }
    },
  }
}
export type TrustedInput = ReturnType<typeof createTrustedInput>

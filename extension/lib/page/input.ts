import type { Actionable } from './actionability'
import { frameOffset } from './dom'
import { editingCommand } from './editing-keys'
import { codeOf, dispatchClick, dispatchContextMenu, dispatchDoubleClick, dispatchHover, keyCodeOf, type KeyChord } from './events'

/** A point in the top window's viewport (CSS pixels), where trusted input is aimed. */
export interface Point {
  x: number
  y: number
}

/** One key as the debugger sends it: `modifiers` is CDP's bit mask (Alt 1, Control 2, Meta 4, Shift 8). */
export interface KeyStroke {
  key: string
  code: string
  keyCode: number
  modifiers: number
  /** What the key types, for printable keys and Enter; absent for keys that type nothing. */
  text?: string
  /** The browser's editing commands the key means (copy, paste, selectAll, moveLeftAndModifySelection…), sent with it. */
  commands?: string[]
}

export interface EditingCommandUse {
  name: string
  via: 'cdp' | 'dom'
}

/** What the page asks the extension to do with real (trusted) input, once it has checked the target itself. */
export type InputGesture =
  /** `button` right: the secondary button (a context menu); `count` 2: a double click. Absent: one left click. */
  | { kind: 'click'; at: Point; button?: 'left' | 'right'; count?: 1 | 2 }
  | { kind: 'hover'; at: Point }
  /** `html5`: the source is natively draggable (HTML5 drag and drop), which the browser's own drag carries out. */
  | { kind: 'drag'; from: Point; to: Point; html5?: boolean }
  | { kind: 'keys'; keys: KeyStroke[] }
  | { kind: 'text'; text: string }

/**
 * Sends a gesture as trusted input: true when it was sent, false when it could not be and nothing was (no
 * debugger on the tab): the page then uses DOM events. It rejects when it failed halfway (some input was sent).
 */
export type TrustedInput = (gesture: InputGesture) => Promise<boolean>

/** The actionable point in the top window: a same-origin frame's element is offset by the frames around it. */
export function topPoint(el: Element, x: number, y: number): Point {
  const offset = frameOffset(el.ownerDocument)
  return { x: x + offset.x, y: y + offset.y }
}

export function strokeOf(chord: KeyChord): KeyStroke {
  const modifiers = (chord.altKey ? 1 : 0) | (chord.ctrlKey ? 2 : 0) | (chord.metaKey ? 4 : 0) | (chord.shiftKey ? 8 : 0)
  const typing = chord.key.length === 1 && !chord.ctrlKey && !chord.metaKey && !chord.altKey
  const text = typing ? chord.key : chord.key === 'Enter' ? '\r' : undefined
  const command = editingCommand(chord)
  return { key: chord.key, code: codeOf(chord.key) || chord.key, keyCode: keyCodeOf(chord.key), modifiers, ...(text ? { text } : {}), ...(command ? { commands: [command] } : {}) }
}

/**
 * The input of one action: trusted when the extension can send it, DOM events otherwise, and which was used.
 * The DOM path is the fallback per gesture, so a step that could not send one trusted gesture still runs.
 */
export function createPageInput(trusted?: TrustedInput) {
  let cdp = false
  let dom = false
  let command: EditingCommandUse | undefined
  const send = async (gesture: InputGesture) => {
    if (!trusted) return false
    const sent = await trusted(gesture)
    if (sent) cdp = true
    return sent
  }
  return {
    /** Whether trusted input may be had at all (the page does not prepare for it otherwise). */
    trusted: !!trusted,
    /** 'cdp' when every gesture went through the debugger, 'dom' when any was a DOM event; undefined when none was sent. */
    used: (): 'cdp' | 'dom' | undefined => (dom ? 'dom' : cdp ? 'cdp' : undefined),
    /** The editing command the step's key ran, and how: with the trusted key, or by the element's editing APIs. */
    command: (): EditingCommandUse | undefined => command,
    usedCommand(name: string, via: 'cdp' | 'dom') {
      command = { name, via }
    },
    /** Notes a gesture done with DOM events only (one no trusted input can do). */
    usedDom() {
      dom = true
    },
    async click(at: Actionable): Promise<void> {
      if (await send({ kind: 'click', at: topPoint(at.hit, at.x, at.y) })) return
      dom = true
      dispatchClick(at.hit, at.x, at.y)
    },
    async doubleClick(at: Actionable): Promise<void> {
      if (await send({ kind: 'click', at: topPoint(at.hit, at.x, at.y), count: 2 })) return
      dom = true
      dispatchDoubleClick(at.hit, at.x, at.y)
    },
    async rightClick(at: Actionable): Promise<void> {
      if (await send({ kind: 'click', at: topPoint(at.hit, at.x, at.y), button: 'right' })) return
      dom = true
      dispatchContextMenu(at.hit, at.x, at.y)
    },
    async hover(at: Actionable): Promise<void> {
      if (await send({ kind: 'hover', at: topPoint(at.hit, at.x, at.y) })) return
      dom = true
      dispatchHover(at.hit, at.x, at.y)
    },
    /** A pointer drag by trusted input; false when it could not be sent (the caller drags with DOM events). */
    async drag(from: Actionable, to: Actionable, html5 = false): Promise<boolean> {
      return send({ kind: 'drag', from: topPoint(from.hit, from.x, from.y), to: topPoint(to.hit, to.x, to.y), ...(html5 ? { html5 } : {}) })
    },
    /** Keys into whatever has focus; false when they could not be sent. */
    keys(chords: KeyChord[]): Promise<boolean> {
      return send({ kind: 'keys', keys: chords.map(strokeOf) })
    },
    /** Text into whatever has focus, replacing its selection; false when it could not be sent. */
    text(text: string): Promise<boolean> {
      return send({ kind: 'text', text })
    },
  }
}
export type PageInput = ReturnType<typeof createPageInput>

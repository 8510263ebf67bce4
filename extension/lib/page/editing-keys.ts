import { isHtmlElement, isTag } from './dom'
import { dispatchInput, type KeyChord } from './events'

/**
 * The browser's editing command a key chord means (Chromium's names, as Input.dispatchKeyEvent's `commands` take
 * them). Sent with the key, the browser runs it on any platform: Cmd+C on a Mac is handled by its menu, not the
 * page, so a debugger's key event alone copies nothing there. Ctrl and Cmd both count, as a person would expect.
 */
export function editingCommand(chord: KeyChord): string | undefined {
  const mod = chord.ctrlKey || chord.metaKey
  const key = chord.key.length === 1 ? chord.key.toLowerCase() : chord.key
  if (mod && !chord.altKey) {
    if (key === 'a' && !chord.shiftKey) return 'selectAll'
    if (key === 'c' && !chord.shiftKey) return 'copy'
    if (key === 'x' && !chord.shiftKey) return 'cut'
    if (key === 'v' && !chord.shiftKey) return 'paste'
    if (key === 'z') return chord.shiftKey ? 'redo' : 'undo'
    if (key === 'y' && !chord.shiftKey) return 'redo'
  }
  if (!chord.shiftKey) return undefined
  // Ctrl (Alt on a Mac) moves by words; Cmd on a Mac to the line's or document's edge.
  const word = chord.ctrlKey || chord.altKey
  switch (key) {
    case 'ArrowLeft':
      return chord.metaKey ? 'moveToBeginningOfLineAndModifySelection' : word ? 'moveWordLeftAndModifySelection' : 'moveLeftAndModifySelection'
    case 'ArrowRight':
      return chord.metaKey ? 'moveToEndOfLineAndModifySelection' : word ? 'moveWordRightAndModifySelection' : 'moveRightAndModifySelection'
    case 'ArrowUp':
      return mod ? 'moveToBeginningOfDocumentAndModifySelection' : 'moveUpAndModifySelection'
    case 'ArrowDown':
      return mod ? 'moveToEndOfDocumentAndModifySelection' : 'moveDownAndModifySelection'
    case 'Home':
      return mod ? 'moveToBeginningOfDocumentAndModifySelection' : 'moveToBeginningOfLineAndModifySelection'
    case 'End':
      return mod ? 'moveToEndOfDocumentAndModifySelection' : 'moveToEndOfLineAndModifySelection'
  }
  return undefined
}

type Move = { backward: boolean; unit: 'character' | 'word' | 'line' | 'lineboundary' | 'documentboundary' }

export const MOVES: Record<string, Move> = {
  moveLeftAndModifySelection: { backward: true, unit: 'character' },
  moveRightAndModifySelection: { backward: false, unit: 'character' },
  moveWordLeftAndModifySelection: { backward: true, unit: 'word' },
  moveWordRightAndModifySelection: { backward: false, unit: 'word' },
  moveUpAndModifySelection: { backward: true, unit: 'line' },
  moveDownAndModifySelection: { backward: false, unit: 'line' },
  moveToBeginningOfLineAndModifySelection: { backward: true, unit: 'lineboundary' },
  moveToEndOfLineAndModifySelection: { backward: false, unit: 'lineboundary' },
  moveToBeginningOfDocumentAndModifySelection: { backward: true, unit: 'documentboundary' },
  moveToEndOfDocumentAndModifySelection: { backward: false, unit: 'documentboundary' },
}

export const MOVE_WORDS: Record<Move['unit'], [string, string]> = {
  character: ['one character left', 'one character right'],
  word: ['one word left', 'one word right'],
  line: ['one line up', 'one line down'],
  lineboundary: ['to the start of the line', 'to the end of the line'],
  documentboundary: ['to the start of the text', 'to the end of the text'],
}

const TEXT_TYPES = ['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number']

/** Where a key edits: a text field, or a contenteditable editor (its editing host). */
export type Editable = { kind: 'field'; el: HTMLInputElement | HTMLTextAreaElement } | { kind: 'rich'; el: HTMLElement }

export function editableOf(el: Element): Editable | null {
  if (isTag(el, 'textarea') || (isTag(el, 'input') && TEXT_TYPES.includes(el.type))) return { kind: 'field', el }
  if (!isHtmlElement(el) || !el.isContentEditable) return null
  let host: HTMLElement = el
  while (host.parentElement?.isContentEditable) host = host.parentElement
  return { kind: 'rich', el: host }
}

/** The text and selection of an editable; anchor/focus are character offsets in its text (-1: selection elsewhere). */
export interface EditState {
  text: string
  anchor: number
  focus: number
}

/** Email and number fields hide their selection (selectionStart is null): only their text can be judged. */
export function selectable(target: Editable): boolean {
  return target.kind === 'rich' || target.el.selectionStart !== null
}

function fieldSelection(el: HTMLInputElement | HTMLTextAreaElement): { anchor: number; focus: number } {
  try {
    if (el.selectionStart === null) return { anchor: -1, focus: -1 }
    const start = el.selectionStart
    const end = el.selectionEnd ?? start
    return el.selectionDirection === 'backward' ? { anchor: end, focus: start } : { anchor: start, focus: end }
  } catch {
    // number inputs have no selection API
    return { anchor: -1, focus: -1 }
  }
}

function offsetIn(root: HTMLElement, node: Node | null, offset: number): number {
  if (!node || !root.contains(node)) return -1
  const range = root.ownerDocument.createRange()
  range.selectNodeContents(root)
  range.setEnd(node, offset)
  return range.toString().length
}

export function editState(target: Editable): EditState {
  if (target.kind === 'field') return { text: target.el.value, ...fieldSelection(target.el) }
  const sel = target.el.ownerDocument.getSelection()
  const all = target.el.ownerDocument.createRange()
  all.selectNodeContents(target.el)
  return { text: all.toString(), anchor: offsetIn(target.el, sel?.anchorNode ?? null, sel?.anchorOffset ?? 0), focus: offsetIn(target.el, sel?.focusNode ?? null, sel?.focusOffset ?? 0) }
}

export const isPassword = (target: Editable) => target.kind === 'field' && isTag(target.el, 'input') && target.el.type === 'password'

function selectedText(target: Editable): string {
  if (target.kind === 'rich') return target.el.ownerDocument.getSelection()?.toString() ?? ''
  const { anchor, focus } = fieldSelection(target.el)
  // A field that hides its selection is copied whole, as after the select all that usually comes first.
  return anchor < 0 ? target.el.value : target.el.value.slice(Math.min(anchor, focus), Math.max(anchor, focus))
}

/**
 * What the task copied or cut with DOM events, for its pastes: the page cannot read the system clipboard without a
 * permission a person would not expect (clipboardRead). It lives as long as the page's content script does.
 */
let clipboard: string | null = null

function remember(target: Editable, text: string): void {
  // A password is never copied anywhere, as the browser itself refuses to.
  if (isPassword(target) || !text) return
  clipboard = text
  const nav = target.el.ownerDocument.defaultView?.navigator
  nav?.clipboard?.writeText(text).catch(() => undefined)
}

/** Notes what a trusted copy or cut took (the browser's clipboard has it too), so a later DOM paste has it. */
export function noteCopied(target: Editable, before: EditState): void {
  if (before.anchor < 0) remember(target, selectedText(target))
  else remember(target, before.text.slice(Math.min(before.anchor, before.focus), Math.max(before.anchor, before.focus)))
}

/** What the task copied or cut with DOM events, if anything. */
export const copiedText = (): string | null => clipboard

/** Forgets the copied text (tests, a new task). */
export function clearClipboard(): void {
  clipboard = null
}

function clipboardEvent(target: Editable, type: 'copy' | 'cut' | 'paste', text?: string): { handled: boolean; data: DataTransfer } {
  const w = target.el.ownerDocument.defaultView as Window & typeof globalThis
  const data = new w.DataTransfer()
  if (text !== undefined) data.setData('text/plain', text)
  const handled = !target.el.dispatchEvent(new w.ClipboardEvent(type, { clipboardData: data, bubbles: true, cancelable: true, composed: true }))
  return { handled, data }
}

/** Replaces the selection with text (or deletes it): the editing command first, which the page's undo and editors follow. */
function replaceSelection(target: Editable, text: string): void {
  const doc = target.el.ownerDocument
  if (doc.execCommand(text ? 'insertText' : 'delete', false, text)) return
  if (target.kind !== 'field') return
  const { anchor, focus } = fieldSelection(target.el)
  if (anchor < 0) return
  target.el.setRangeText(text, Math.min(anchor, focus), Math.max(anchor, focus), 'end')
  dispatchInput(target.el, text ? 'insertFromPaste' : 'deleteByCut', text || null)
}

function wordEdge(text: string, from: number, backward: boolean): number {
  let at = from
  const word = (i: number) => /[\p{L}\p{N}_]/u.test(text[i] ?? '')
  if (backward) {
    while (at > 0 && !word(at - 1)) at--
    while (at > 0 && word(at - 1)) at--
  } else {
    while (at < text.length && !word(at)) at++
    while (at < text.length && word(at)) at++
  }
  return at
}

function lineMove(text: string, from: number, move: Move, multiline: boolean): number {
  const lineStart = text.lastIndexOf('\n', from - 1) + 1
  const nextBreak = text.indexOf('\n', from)
  const lineEnd = nextBreak < 0 ? text.length : nextBreak
  if (move.unit === 'lineboundary') return move.backward ? lineStart : lineEnd
  if (!multiline) return move.backward ? 0 : text.length
  const column = from - lineStart
  if (move.backward) {
    if (lineStart === 0) return 0
    const prevStart = text.lastIndexOf('\n', lineStart - 2) + 1
    return Math.min(prevStart + column, lineStart - 1)
  }
  if (nextBreak < 0) return text.length
  const followingEnd = text.indexOf('\n', lineEnd + 1)
  return Math.min(lineEnd + 1 + column, followingEnd < 0 ? text.length : followingEnd)
}

function extendField(el: HTMLInputElement | HTMLTextAreaElement, move: Move): void {
  const { anchor, focus } = fieldSelection(el)
  if (anchor < 0) return
  const text = el.value
  const to =
    move.unit === 'character' ? Math.max(0, Math.min(text.length, focus + (move.backward ? -1 : 1)))
    : move.unit === 'word' ? wordEdge(text, focus, move.backward)
    : move.unit === 'documentboundary' ? (move.backward ? 0 : text.length)
    : lineMove(text, focus, move, isTag(el, 'textarea'))
  el.setSelectionRange(Math.min(anchor, to), Math.max(anchor, to), to < anchor ? 'backward' : 'forward')
  el.dispatchEvent(new Event('select', { bubbles: true }))
}

/**
 * Does an editing command with the focused element's own editing APIs, when no trusted key could: the DOM
 * events a script sends make no browser command happen.
 */
export function runEditingCommand(target: Editable, name: string): void {
  const doc = target.el.ownerDocument
  const move = MOVES[name]
  if (move) {
    if (target.kind === 'field') extendField(target.el, move)
    else doc.getSelection()?.modify('extend', move.backward ? 'backward' : 'forward', move.unit)
    return
  }
  switch (name) {
    case 'selectAll':
      if (target.kind === 'field') target.el.select()
      else doc.getSelection()?.selectAllChildren(target.el)
      return
    case 'copy':
    case 'cut': {
      const selected = selectedText(target)
      const event = clipboardEvent(target, name)
      // A page that handles copy puts its own text in the event; otherwise it is the selection.
      remember(target, event.handled ? event.data.getData('text/plain') : selected)
      if (name === 'cut' && !event.handled && selected && !isPassword(target)) replaceSelection(target, '')
      return
    }
    case 'paste': {
      if (!clipboard) return
      // Editors (ProseMirror, Quill) read pastes from the event; a plain field gets the text inserted.
      if (!clipboardEvent(target, 'paste', clipboard).handled) replaceSelection(target, clipboard)
      return
    }
    case 'undo':
    case 'redo':
      doc.execCommand(name)
      return
  }
}

/** Types a character or deletes one in a contenteditable with the editing commands the editor listens to. */
export function editRich(target: Editable, key: string): void {
  const doc = target.el.ownerDocument
  const { text, anchor, focus } = editState(target)
  // Nothing to delete there: a browser's key changes nothing and fires no input.
  if (anchor === focus && ((key === 'Backspace' && focus <= 0) || (key === 'Delete' && focus >= text.length))) return
  if (key === 'Backspace') doc.execCommand('delete')
  else if (key === 'Delete') doc.execCommand('forwardDelete')
  else if (key.length === 1) doc.execCommand('insertText', false, key)
}

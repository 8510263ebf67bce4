import type { Action } from '../../../../protocol/action'
import { ensureActionable } from '../actionability'
import { deepActiveElement, isHtmlElement, isTag } from '../dom'
import { fail } from '../errors'
import { editableOf, editingCommand, editRich, editState, noteCopied, runEditingCommand } from '../editing-keys'
import { checkKeyEffect, watchKey } from '../key-effect'
import { dispatchInput, dispatchKey, setNativeValue, type KeyChord } from '../events'
import type { PageInput } from '../input'
import { assertConfirmedIfRisky, type RiskGate } from '../risk-gate'
import { assertStaysOnGrantedSites } from '../site-gate'
import { formSubmittedBy } from './click'
import { enterDefault, formSubmittedByEnter } from './submit'

const ALIASES: Record<string, string> = {
  return: 'Enter', enter: 'Enter', esc: 'Escape', escape: 'Escape', tab: 'Tab', space: ' ', spacebar: ' ',
  backspace: 'Backspace', delete: 'Delete', del: 'Delete', up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft',
  right: 'ArrowRight', arrowup: 'ArrowUp', arrowdown: 'ArrowDown', arrowleft: 'ArrowLeft', arrowright: 'ArrowRight',
  home: 'Home', end: 'End', pageup: 'PageUp', pagedown: 'PageDown', plus: '+',
}
const MODIFIERS: Record<string, keyof Omit<KeyChord, 'key'>> = {
  control: 'ctrlKey', ctrl: 'ctrlKey', shift: 'shiftKey', alt: 'altKey', option: 'altKey', meta: 'metaKey', cmd: 'metaKey',
  command: 'metaKey', controlormeta: 'ctrlKey',
}

/** "Control+A", "Shift+Tab", "Enter", "a" → one key chord. */
export function parseChord(keys: string): KeyChord {
  const parts = keys.trim() === '+' ? ['+'] : keys.trim().split(/\s*\+\s*/).map((p, i, all) => (p === '' && i === all.length - 1 ? '+' : p))
  const chord: KeyChord = { key: '', ctrlKey: false, shiftKey: false, altKey: false, metaKey: false }
  for (const part of parts.filter(Boolean)) {
    const modifier = MODIFIERS[part.toLowerCase()]
    if (modifier && parts.length > 1) chord[modifier] = true
    else if (chord.key) fail('ACTION_FAILED', 'press takes one key with optional modifiers, like "Control+A"')
    else chord.key = ALIASES[part.toLowerCase()] ?? (/^f\d{1,2}$/i.test(part) ? part.toUpperCase() : part.length === 1 ? part : part[0]!.toUpperCase() + part.slice(1))
  }
  if (!chord.key) fail('ACTION_FAILED', 'press needs a key, like "Enter" or "Control+A"')
  if (chord.shiftKey && chord.key.length === 1) chord.key = chord.key.toUpperCase()
  return chord
}

function isTextField(el: Element): el is HTMLInputElement | HTMLTextAreaElement {
  return isTag(el, 'textarea') || (isTag(el, 'input') && ['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number'].includes(el.type))
}

function focusables(doc: Document): HTMLElement[] {
  const all = doc.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, [tabindex], [contenteditable]:not([contenteditable=false])')
  return Array.from(all).filter((el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled && el.checkVisibility?.() !== false && !(isTag(el, 'input') && el.type === 'hidden'))
}

function editText(field: HTMLInputElement | HTMLTextAreaElement, insert: string | null, forward = false): void {
  let start = field.value.length
  let end = start
  try {
    start = field.selectionStart ?? start
    end = field.selectionEnd ?? end
  } catch {
    // no selection API on this type
  }
  if (insert === null && start === end) {
    if (forward) end = Math.min(field.value.length, end + 1)
    else start = Math.max(0, start - 1)
    // Nothing before (or after) the cursor: the browser fires no input for a key that deleted nothing.
    if (start === end) return
  }
  setNativeValue(field, field.value.slice(0, start) + (insert ?? '') + field.value.slice(end))
  try {
    field.setSelectionRange(start + (insert?.length ?? 0), start + (insert?.length ?? 0))
  } catch {
    // ignore
  }
  dispatchInput(field, insert !== null ? 'insertText' : forward ? 'deleteContentForward' : 'deleteContentBackward', insert)
}

/** What the browser would do for the key once no listener has cancelled it. */
function keyDefault(el: Element, chord: KeyChord): void {
  const { key } = chord
  const command = chord.ctrlKey || chord.metaKey
  if (key === 'Enter' && !command) {
    enterDefault(el, {})
    return
  }
  if (key === ' ' && !command && (isTag(el, 'button') || isTag(el, 'summary') || (isTag(el, 'input') && ['checkbox', 'radio', 'button', 'submit'].includes(el.type)))) {
    ;(el as HTMLElement).click()
    return
  }
  if (key === 'Tab' && !command) {
    const list = focusables(el.ownerDocument)
    const at = list.indexOf(el as HTMLElement)
    const next = list[(at + (chord.shiftKey ? -1 : 1) + list.length) % list.length]
    next?.focus()
    return
  }
  if (command || chord.altKey) return
  const editable = editableOf(el)
  if (editable?.kind === 'rich') editRich(editable, key)
  if (!isTextField(el)) return
  if (key === 'Backspace' || key === 'Delete') editText(el, null, key === 'Delete')
  else if (key.length === 1) editText(el, key)
}

/**
 * Presses a key (with modifiers) in the focused element, or in the target after focusing it.
 * Enter that would submit a non-search form is a submit: it needs confirmation like clicking the button.
 */
export async function pressKeys(win: Window, action: Action, target: Element | null, keys: string, input: PageInput, gate?: RiskGate, sites?: readonly string[]): Promise<void> {
  const chord = parseChord(keys)
  const doc = win.document
  let el = target ?? deepActiveElement(doc) ?? doc.body
  if (!el) fail('TARGET_NOT_FOUND', 'no focused element to press keys in')
  // Enter in a field submits its form; Enter or Space on a submit button clicks it: both are submits.
  const activates = (chord.key === 'Enter' || chord.key === ' ') && !chord.ctrlKey && !chord.metaKey
  const submits = !activates ? null : ((chord.key === 'Enter' ? formSubmittedByEnter(el) : null) ?? formSubmittedBy(el))
  assertConfirmedIfRisky(win, action, el, { submits, ...gate })
  if (activates) assertStaysOnGrantedSites(win, el, submits, sites)
  if (target) {
    ensureActionable(target, { requireEnabled: true })
    if (isHtmlElement(target)) target.focus({ preventScroll: true })
    el = deepActiveElement(doc) && target.contains(deepActiveElement(doc)) ? deepActiveElement(doc)! : target
  }
  // Editing and selection keys are checked against the text and selection they should change.
  const editable = editableOf(el)
  const command = editingCommand(chord)
  const before = editable ? editState(editable) : null
  const watch = watchKey(el, editable)
  try {
    // Trusted keys go to what has focus, and the browser does what they do (submits, moves focus, edits) itself.
    if (await input.keys([chord])) {
      if (command) input.usedCommand(command, 'cdp')
      if (editable && (command === 'copy' || command === 'cut')) noteCopied(editable, before!)
      if (editable) await checkKeyEffect(editable, chord, command, before!, 'cdp', watch.handled)
      return
    }
    input.usedDom()
    if (dispatchKey(el, 'keydown', chord)) {
      const printable = chord.key.length === 1 && !chord.ctrlKey && !chord.metaKey
      // A command key the page left alone does what the browser would, with the element's editing APIs.
      if (command && editable) {
        runEditingCommand(editable, command)
        input.usedCommand(command, 'dom')
      } else if (!printable && chord.key !== 'Enter') keyDefault(el, chord)
      else if (dispatchKey(el, 'keypress', chord)) keyDefault(el, chord)
    }
    if (el.isConnected) dispatchKey(el, 'keyup', chord)
    if (editable) await checkKeyEffect(editable, chord, command, before!, 'dom', watch.handled)
  } finally {
    watch.stop()
  }
}

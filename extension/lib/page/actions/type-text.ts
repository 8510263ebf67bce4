import type { Action } from '../../../../protocol/action'
import { ensureActionable } from '../actionability'
import { isHtmlElement, isTag } from '../dom'
import { fail, noEffect } from '../errors'
import { dispatchBeforeInput, dispatchChange, dispatchInput, dispatchKey, plainKey, setNativeValue } from '../events'
import { formOf } from '../form-context'
import type { PageInput } from '../input'
import { assertConfirmedIfRisky, type RiskGate } from '../risk-gate'
import { isSecretField } from '../sensitive'
import { assertStaysOnGrantedSites } from '../site-gate'
import { DATE_TYPES, nativeDateValue } from './date-value'
import { lettersAndDigits, settledReading, shown } from './effect'
import { pressEnterIn } from './submit'

type TextControl = HTMLInputElement | HTMLTextAreaElement

// Types whose partial values survive sanitisation, so they can be typed one character at a time.
const KEYSTROKE_TYPES = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password'])
const TEXT_INPUT_TYPES = new Set([...KEYSTROKE_TYPES, 'number', 'date', 'datetime-local', 'month', 'week', 'time', 'color', 'range'])
const KEYSTROKE_LIMIT = 2000

function isTextControl(el: Element): el is TextControl {
  return isTag(el, 'textarea') || (isTag(el, 'input') && TEXT_INPUT_TYPES.has(el.type))
}

/** The field an action meant: the element itself, the control of a <label>, or the one field inside a wrapper. */
export function editableOf(el: Element): TextControl | HTMLElement | null {
  if (isTextControl(el)) return el
  if (isHtmlElement(el) && el.isContentEditable) return el
  if (isTag(el, 'label') && el.control && isTextControl(el.control)) return el.control
  const inner = el.querySelectorAll('input, textarea, [contenteditable]:not([contenteditable=false])')
  const fields = Array.from(inner).filter((f) => isTextControl(f) || (isHtmlElement(f) && f.isContentEditable))
  return fields.length === 1 ? (fields[0] as TextControl | HTMLElement) : null
}

function typeKeystrokes(field: TextControl, text: string): void {
  for (const char of text) {
    const key = char === '\n' ? 'Enter' : char
    const chord = plainKey(key)
    if (!dispatchKey(field, 'keydown', chord)) {
      dispatchKey(field, 'keyup', chord)
      continue
    }
    dispatchKey(field, 'keypress', chord)
    const inputType = char === '\n' ? 'insertLineBreak' : 'insertText'
    const data = char === '\n' ? null : char
    if (dispatchBeforeInput(field, inputType, data)) {
      const value = field.value
      let start: number | null = null
      let end: number | null = null
      try {
        start = field.selectionStart
        end = field.selectionEnd
      } catch {
        // email and number inputs have no selection API: append
      }
      const at = start ?? value.length
      const next = value.slice(0, at) + char + value.slice(end ?? at)
      setNativeValue(field, next)
      if (start !== null) {
        try {
          field.setSelectionRange(at + char.length, at + char.length)
        } catch {
          // not every type supports it
        }
      }
      dispatchInput(field, inputType, data)
    }
    dispatchKey(field, 'keyup', chord)
  }
}

/** Whether the field can hold a selection (trusted text replaces it): email and number inputs cannot. */
function selectable(field: TextControl): boolean {
  try {
    return field.selectionStart !== null
  } catch {
    return false
  }
}

/** Types by trusted input: the field's content (or its end) selected, the text inserted over it, as a person's typing. */
async function typeTrusted(field: TextControl, text: string, clear: boolean, input: PageInput): Promise<boolean> {
  const keystrokes = isTag(field, 'textarea') || KEYSTROKE_TYPES.has(field.type)
  if (!input.trusted || !text || !keystrokes || !selectable(field)) return false
  field.focus({ preventScroll: true })
  if (clear) field.select()
  else field.setSelectionRange(field.value.length, field.value.length)
  if (!(await input.text(text))) return false
  // No change event here: the browser fires its own when focus leaves the field or Enter commits it, as after a
  // person's typing; one sent now would make two.
  return true
}

async function typeIntoControl(field: TextControl, text: string, clear: boolean, input: PageInput): Promise<void> {
  if (field.readOnly) fail('TARGET_NOT_INTERACTABLE', 'the field is read-only')
  if (await typeTrusted(field, text, clear, input)) return
  input.usedDom()
  field.focus({ preventScroll: true })
  if (clear && field.value !== '') {
    try {
      field.select()
    } catch {
      // types without selection
    }
    if (dispatchBeforeInput(field, 'deleteContentBackward', null)) {
      setNativeValue(field, '')
      dispatchInput(field, 'deleteContentBackward', null)
    }
  } else if (!clear) {
    try {
      field.setSelectionRange(field.value.length, field.value.length)
    } catch {
      // types without selection append anyway
    }
  }
  const keystrokes = (isTag(field, 'textarea') || KEYSTROKE_TYPES.has(field.type)) && text.length <= KEYSTROKE_LIMIT
  if (isTag(field, 'input') && DATE_TYPES.has(field.type)) {
    // The form the input understands, or the words as typed: the input then holds nothing, and the check says so.
    setNativeValue(field, text === '' ? '' : (nativeDateValue(field.type, text, langOf(field)) ?? text))
    dispatchInput(field, 'insertReplacementText', null)
  } else if (isTag(field, 'input') && field.type === 'number' && clear) {
    // A number input holds digits only: "1,000" as a person writes it is the 1000 it means.
    setNativeValue(field, plainNumber(text))
    dispatchInput(field, 'insertText', text)
  } else if (keystrokes) typeKeystrokes(field, text)
  else {
    setNativeValue(field, clear ? text : field.value + text)
    dispatchInput(field, 'insertText', text)
  }
  dispatchChange(field)
}

async function typeIntoEditable(editor: HTMLElement, text: string, clear: boolean, input: PageInput): Promise<void> {
  const doc = editor.ownerDocument
  const selection = doc.getSelection()
  editor.focus({ preventScroll: true })
  if (selection) {
    const range = doc.createRange()
    range.selectNodeContents(editor)
    if (!clear) range.collapse(false)
    selection.removeAllRanges()
    selection.addRange(range)
  }
  if (text && (await input.text(text))) return
  input.usedDom()
  if (text === '') {
    if (clear && dispatchBeforeInput(editor, 'deleteContentBackward', null)) doc.execCommand('delete')
    return
  }
  // Editors (Lexical, Slate, ProseMirror) take text from beforeinput and cancel it; execCommand does not fire it.
  if (!dispatchBeforeInput(editor, 'insertText', text)) return
  const before = editor.textContent ?? ''
  const inserted = doc.execCommand('insertText', false, text)
  if (inserted && editor.textContent !== before) return
  const range = selection && selection.rangeCount ? selection.getRangeAt(0) : null
  if (range && editor.contains(range.commonAncestorContainer)) {
    range.deleteContents()
    range.insertNode(doc.createTextNode(text))
    range.collapse(false)
  } else editor.append(doc.createTextNode(text))
  dispatchInput(editor, 'insertText', text)
}

/** A number as written by a person ("1,000", "2 500", "1_000"), as a number input holds it; else as it was. */
function plainNumber(text: string): string {
  const plain = text.trim().replace(/[\s,_']/g, '')
  return plain !== '' && Number.isFinite(Number(plain)) ? plain : text
}

/** The language dates on the page are read in: the field's, the page's, else the browser's. */
function langOf(el: Element): string {
  return el.closest('[lang]')?.getAttribute('lang') || el.ownerDocument.defaultView?.navigator.language || 'en-US'
}

/** What the field holds: an input's value, an editor's text. */
const contentOf = (field: TextControl | HTMLElement) => (isTextControl(field) ? field.value : (field.innerText ?? field.textContent ?? ''))

/** The value the step should leave: the text (in a date input's own form), after what was there when appending. */
function wantedValue(field: TextControl | HTMLElement, before: string, text: string, clear: boolean): string {
  const typed = isTag(field, 'input') && DATE_TYPES.has(field.type) && text ? (nativeDateValue(field.type, text, langOf(field)) ?? text) : text
  return clear ? typed : before + typed
}

/** Whether the field holds what was typed, as the page may legitimately have reformatted it (a mask, a number). */
function holds(field: TextControl | HTMLElement, value: string, wanted: string, text: string): boolean {
  if (value === wanted) return true
  if (isTag(field, 'input') && (field.type === 'number' || field.type === 'range')) {
    const asked = Number(plainNumber(wanted))
    return value !== '' && Number.isFinite(asked) && Number(value) === asked
  }
  if (isTextControl(field)) return lettersAndDigits(value) === lettersAndDigits(wanted)
  // An editor keeps its own structure (paragraphs, a trailing newline): the typed words must be in it.
  return lettersAndDigits(value).includes(lettersAndDigits(text))
}

/**
 * Reads the field back once the page had its turn. A value the page reformatted counts; no effect is a field left as
 * it was, or left empty, when the text asked for something else. A secret's value is never put into the message.
 */
async function checkTyped(win: Window, field: TextControl | HTMLElement, before: string, text: string, clear: boolean): Promise<void> {
  const wanted = wantedValue(field, before, text, clear)
  const value = await settledReading(win, () => contentOf(field), (v) => !field.isConnected || holds(field, v, wanted, text))
  // A field the page replaced while handling the typing (a re-mounted component) has its effect elsewhere.
  if (!field.isConnected || holds(field, value, wanted, text)) return
  const unchanged = value === before || value.trim() === ''
  if (!unchanged) return
  if (isHtmlElement(field) && isSecretField(field)) noEffect('the typed secret in the field', value === '' ? 'an empty field' : 'the field as it was before')
  if (isTag(field, 'input') && DATE_TYPES.has(field.type) && text && !nativeDateValue(field.type, text, langOf(field))) {
    noEffect(`"${text}" as a ${field.type} value`, `${shown(value)}: the text does not read as a ${field.type}`)
  }
  noEffect(isTextControl(field) ? shown(wanted) : `the text ${shown(text)} in the editor`, `${shown(value)}${value === before && value.trim() !== '' ? ' (unchanged)' : ''}`)
}

export async function typeText(
  win: Window,
  action: Action,
  el: Element,
  params: { text: string; clear?: boolean; submit?: boolean },
  input: PageInput,
  gate?: RiskGate,
  sites?: readonly string[],
): Promise<void> {
  const field = editableOf(el)
  if (!field) fail('TARGET_NOT_INTERACTABLE', 'the element does not accept text (not a field or an editor)')
  // Enter in an editor does not submit its form; in a field (and with submit, a textarea) it does.
  const submits = params.submit && isTextControl(field) ? formOf(field) : null
  // Always checked: entering a password or card number is credential entry, high risk even without submit.
  assertConfirmedIfRisky(win, action, field, { submits, ...gate })
  if (submits) assertStaysOnGrantedSites(win, field, submits, sites)
  ensureActionable(field)
  // Typing replaces what is there unless asked otherwise: the model states what the field should contain.
  const clear = params.clear ?? true
  const before = contentOf(field)
  if (isTextControl(field)) await typeIntoControl(field, params.text, clear, input)
  else await typeIntoEditable(field, params.text, clear, input)
  await checkTyped(win, field, before, params.text, clear)
  if (!params.submit) return
  // A trusted Enter in a single-line field submits as the browser does; a textarea (a newline) and the fallback by hand.
  if (isTag(field, 'input') && (await input.keys([plainKey('Enter')]))) return
  pressEnterIn(field, { submitTextarea: true })
}

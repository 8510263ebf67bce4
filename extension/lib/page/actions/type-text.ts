import type { Action } from '../../../../protocol/action'
import { ensureActionable } from '../actionability'
import { isHtmlElement, isTag } from '../dom'
import { fail } from '../errors'
import { dispatchBeforeInput, dispatchChange, dispatchInput, dispatchKey, plainKey, setNativeValue } from '../events'
import { formOf } from '../form-context'
import { assertConfirmedIfRisky, type RiskRules } from '../risk-gate'
import { assertStaysOnGrantedSites } from '../site-gate'
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

function typeIntoControl(field: TextControl, text: string, clear: boolean): void {
  if (field.readOnly) fail('TARGET_NOT_INTERACTABLE', 'the field is read-only')
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
  if (keystrokes) typeKeystrokes(field, text)
  else {
    setNativeValue(field, clear ? text : field.value + text)
    dispatchInput(field, 'insertText', text)
  }
  dispatchChange(field)
}

function typeIntoEditable(editor: HTMLElement, text: string, clear: boolean): void {
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

export async function typeText(
  win: Window,
  action: Action,
  el: Element,
  params: { text: string; clear?: boolean; submit?: boolean },
  rules?: RiskRules,
  sites?: readonly string[],
): Promise<void> {
  const field = editableOf(el)
  if (!field) fail('TARGET_NOT_INTERACTABLE', 'the element does not accept text (not a field or an editor)')
  // Enter in an editor does not submit its form; in a field (and with submit, a textarea) it does.
  const submits = params.submit && isTextControl(field) ? formOf(field) : null
  // Always checked: entering a password or card number is credential entry, high risk even without submit.
  assertConfirmedIfRisky(win, action, field, { submits, rules })
  if (submits) assertStaysOnGrantedSites(win, field, submits, sites)
  ensureActionable(field)
  // Typing replaces what is there unless asked otherwise: the model states what the field should contain.
  const clear = params.clear ?? true
  if (isTextControl(field)) typeIntoControl(field, params.text, clear)
  else typeIntoEditable(field, params.text, clear)
  if (params.submit) pressEnterIn(field, { submitTextarea: true })
}

import { isTag } from '../dom'
import { dispatchKey, plainKey } from '../events'
import { defaultButtonOf, formOf } from '../form-context'

const BLOCKING_TYPES = new Set(['text', 'search', 'url', 'tel', 'email', 'password', 'date', 'month', 'week', 'time', 'datetime-local', 'number'])

/**
 * The form Enter in this element would submit, as a browser's implicit submission decides: a single-line field
 * in a form with a submit button, or the only such field of a form without one (textareas only when asked).
 */
export function formSubmittedByEnter(el: Element, opts: { submitTextarea?: boolean } = {}): HTMLFormElement | null {
  const singleLine = isTag(el, 'input') && (BLOCKING_TYPES.has(el.type) || ['checkbox', 'radio'].includes(el.type))
  if (!singleLine && !(opts.submitTextarea && isTag(el, 'textarea'))) return null
  const form = formOf(el)
  if (!form) return null
  if (defaultButtonOf(form)) return form
  const blocking = Array.from(form.elements).filter((f) => isTag(f, 'input') && BLOCKING_TYPES.has(f.type))
  return blocking.length <= 1 || isTag(el, 'textarea') ? form : null
}

/** What Enter does by default after the key events, if no listener cancelled them. */
export function enterDefault(el: Element, opts: { submitTextarea?: boolean }): void {
  const form = formSubmittedByEnter(el, opts)
  if (form) {
    // Browsers submit implicitly by clicking the default button, so its click handlers run as well.
    const button = defaultButtonOf(form)
    if (button) {
      if (!(button as HTMLButtonElement).disabled) button.click()
    } else form.requestSubmit()
    return
  }
  if (isTag(el, 'button') || isTag(el, 'summary') || (isTag(el, 'a') && el.hasAttribute('href'))) (el as HTMLElement).click()
}

/** Presses Enter in an element like a keyboard would: key events, then implicit submission or activation. */
export function pressEnterIn(el: Element, opts: { submitTextarea?: boolean } = {}): void {
  const chord = plainKey('Enter')
  if (dispatchKey(el, 'keydown', chord) && dispatchKey(el, 'keypress', chord)) enterDefault(el, opts)
  if (el.isConnected) dispatchKey(el, 'keyup', chord)
}

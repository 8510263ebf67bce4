import type { Action } from '../../../../protocol/action'
import { ensureActionable, describeForMessage } from '../actionability'
import { isTag } from '../dom'
import { noEffect } from '../errors'
import { formOf } from '../form-context'
import type { PageInput } from '../input'
import { assertConfirmedIfRisky, type RiskGate } from '../risk-gate'
import { explicitRole } from '../semantics'
import { assertStaysOnGrantedSites } from '../site-gate'
import { settledReading } from './effect'

/** The form a click on this element submits, if it is a submit button. */
export function formSubmittedBy(el: Element): HTMLFormElement | null {
  const isSubmit = (isTag(el, 'button') && el.type === 'submit') || (isTag(el, 'input') && (el.type === 'submit' || el.type === 'image'))
  return isSubmit ? formOf(el) : null
}

/**
 * A control whose state a click changes, and how to read it: a checkbox toggles, a radio or tab becomes chosen (a
 * click on one already chosen leaves it so, and that is what was asked), a switch or toggle button flips, a
 * <details> opens or closes. Plain buttons and links have no state to read here.
 */
interface Toggle {
  what: string
  read: () => string
  /** The reading the click should leave, given the one before it; null: already so, nothing to check. */
  after: (before: string) => string | null
}

const flip = (v: string) => (v === 'true' ? 'false' : 'true')
const ARIA_CHECKED = new Set(['checkbox', 'switch', 'menuitemcheckbox'])
const ARIA_CHOSEN = new Set(['radio', 'menuitemradio'])

function toggleOf(el: Element): Toggle | null {
  const control = isTag(el, 'label') && el.control ? el.control : el
  // A library's switch may declare its state in aria-checked while the hidden box's own `checked` lags behind (Element
  // Plus cancels the click that would tick it): the declared state is what the person and a screen reader see.
  const checked = (input: HTMLInputElement) => () => (input.hasAttribute('aria-checked') ? (input.getAttribute('aria-checked') ?? 'false') : String(input.checked))
  if (isTag(control, 'input') && control.type === 'checkbox') return { what: 'checked', read: checked(control), after: flip }
  if (isTag(control, 'input') && control.type === 'radio') return { what: 'checked', read: checked(control), after: (b) => (b === 'true' ? null : 'true') }
  const summary = el.closest('summary')
  const details = summary?.parentElement
  if (summary && details && isTag(details, 'details') && details.querySelector(':scope > summary') === summary) {
    return { what: 'open', read: () => String(details.open), after: flip }
  }
  // The role may sit on the element around the part pointed at (a switch's thumb, a tab's label).
  const owner = control.closest('[role=checkbox], [role=switch], [role=menuitemcheckbox], [role=radio], [role=menuitemradio], [role=tab], [aria-pressed]')
  if (!owner) return null
  const role = explicitRole(owner) ?? ''
  const attr = (name: string) => () => owner.getAttribute(name) ?? 'false'
  if (ARIA_CHECKED.has(role) && owner.hasAttribute('aria-checked')) return { what: 'checked', read: attr('aria-checked'), after: (b) => (b === 'mixed' ? null : flip(b)) }
  if (ARIA_CHOSEN.has(role) && owner.hasAttribute('aria-checked')) return { what: 'checked', read: attr('aria-checked'), after: (b) => (b === 'true' ? null : 'true') }
  if (role === 'tab' && owner.hasAttribute('aria-selected')) return { what: 'selected', read: attr('aria-selected'), after: (b) => (b === 'true' ? null : 'true') }
  if (owner.hasAttribute('aria-pressed') && role !== 'tab') return { what: 'pressed', read: attr('aria-pressed'), after: (b) => (b === 'mixed' ? null : flip(b)) }
  return null
}

export async function clickElement(win: Window, action: Action, el: Element, input: PageInput, gate?: RiskGate, sites?: readonly string[]): Promise<void> {
  const submits = formSubmittedBy(el)
  assertConfirmedIfRisky(win, action, el, { submits, ...gate })
  assertStaysOnGrantedSites(win, el, submits, sites)
  const at = ensureActionable(el)
  const toggle = toggleOf(el)
  const before = toggle?.read()
  await input.click(at)
  if (!toggle || before === undefined) return
  const wanted = toggle.after(before)
  // Already chosen (a radio, a tab): the click asked for the state it is in.
  if (wanted === null) return
  // A tab may switch only once its route or data came (up to 0.6 s); a working one answers at once.
  // A click that navigated or re-rendered the control away leaves nothing to read: its effect is elsewhere.
  const now = await settledReading(win, () => (el.isConnected ? toggle.read() : wanted), (v) => v === wanted, 600)
  if (now !== wanted) noEffect(`${describeForMessage(el)} ${toggle.what} = ${wanted}`, `${toggle.what} = ${now} (unchanged: the page did not take the click)`)
}

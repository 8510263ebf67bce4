import type { Action } from '../../../../protocol/action'
import { ensureActionable } from '../actionability'
import { isTag } from '../dom'
import { formOf } from '../form-context'
import type { PageInput } from '../input'
import { assertConfirmedIfRisky, type RiskRules } from '../risk-gate'
import { assertStaysOnGrantedSites } from '../site-gate'

/** The form a click on this element submits, if it is a submit button. */
export function formSubmittedBy(el: Element): HTMLFormElement | null {
  const isSubmit = (isTag(el, 'button') && el.type === 'submit') || (isTag(el, 'input') && (el.type === 'submit' || el.type === 'image'))
  return isSubmit ? formOf(el) : null
}

export async function clickElement(win: Window, action: Action, el: Element, input: PageInput, rules?: RiskRules, sites?: readonly string[]): Promise<void> {
  const submits = formSubmittedBy(el)
  assertConfirmedIfRisky(win, action, el, { submits, rules })
  assertStaysOnGrantedSites(win, el, submits, sites)
  await input.click(ensureActionable(el))
}

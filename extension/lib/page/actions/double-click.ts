import type { Action } from '../../../../protocol/action'
import { ensureActionable } from '../actionability'
import type { PageInput } from '../input'
import { assertConfirmedIfRisky, type RiskGate } from '../risk-gate'
import { assertStaysOnGrantedSites } from '../site-gate'
import { formSubmittedBy } from './click'

/**
 * Two clicks in a row at one point, as a person's: what opens on `dblclick` opens (a TodoMVC item's editor, a file,
 * a table cell's input). Its first click is a click, so it is gated like one: the link it follows, the form it sends.
 */
export async function doubleClickElement(win: Window, action: Action, el: Element, input: PageInput, gate?: RiskGate, sites?: readonly string[]): Promise<void> {
  const submits = formSubmittedBy(el)
  assertConfirmedIfRisky(win, action, el, { submits, ...gate })
  assertStaysOnGrantedSites(win, el, submits, sites)
  await input.doubleClick(ensureActionable(el))
}

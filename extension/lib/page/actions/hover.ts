import type { Action } from '../../../../protocol/action'
import { ensureActionable } from '../actionability'
import type { PageInput } from '../input'
import { assertConfirmedIfRisky, type RiskRules } from '../risk-gate'

/** Leaves the pointer over the element, so what opens on hover (a menu, a tooltip) opens. Disabled ones show tooltips too. */
export async function hoverElement(win: Window, action: Action, el: Element, input: PageInput, rules?: RiskRules): Promise<void> {
  assertConfirmedIfRisky(win, action, el, { rules })
  await input.hover(ensureActionable(el, { requireEnabled: false }))
}

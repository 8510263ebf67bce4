import type { Action } from '../../../../protocol/action'
import { ensureActionable } from '../actionability'
import type { PageInput } from '../input'
import { assertConfirmedIfRisky, type RiskGate } from '../risk-gate'

/** Leaves the pointer over the element, so what opens on hover (a menu, a tooltip) opens. Disabled ones show tooltips too. */
export async function hoverElement(win: Window, action: Action, el: Element, input: PageInput, gate?: RiskGate): Promise<void> {
  assertConfirmedIfRisky(win, action, el, { ...gate })
  await input.hover(ensureActionable(el, { requireEnabled: false }))
}

import type { Action } from '../../../../protocol/action'
import { describeForMessage, ensureActionable } from '../actionability'
import { noEffect } from '../errors'
import type { PageInput } from '../input'
import { assertConfirmedIfRisky, type RiskGate } from '../risk-gate'
import { settledReading } from './effect'

/** Whether the page took the element's `contextmenu` (cancelled it to show its own menu), once it is heard. */
function watchContextMenu(el: Element) {
  const win = el.ownerDocument.defaultView!
  let heard: 'taken' | 'not taken' | undefined
  const listener = (event: Event) => {
    heard = event.defaultPrevented ? 'taken' : 'not taken'
    // The browser's own menu is no part of the page: the agent cannot see or use it, and it would sit over the
    // person's screen until they closed it.
    event.preventDefault()
  }
  // Bubbling to the window, after the page's own listeners have had it.
  win.addEventListener('contextmenu', listener)
  return { heard: () => heard, stop: () => win.removeEventListener('contextmenu', listener) }
}

/**
 * The secondary button on the element, for pages whose context menu is their UI (a file manager, a spreadsheet,
 * a board): the page's own menu opens. A page that keeps no menu of its own there is told to the planner.
 */
export async function rightClickElement(win: Window, action: Action, el: Element, input: PageInput, gate?: RiskGate): Promise<void> {
  assertConfirmedIfRisky(win, action, el, { ...gate })
  const at = ensureActionable(el)
  const watch = watchContextMenu(at.hit)
  try {
    await input.rightClick(at)
    // Trusted input's contextmenu may come a moment after the press was acknowledged.
    const heard = await settledReading(win, watch.heard, (h) => h !== undefined, 300)
    if (heard === 'not taken') noEffect(`the page's own menu for ${describeForMessage(el)}`, 'the page has no context menu of its own there (the browser’s was kept shut)')
  } finally {
    watch.stop()
  }
}

import type { Action } from '../../../../protocol/action'
import { deepElementFromPoint, ensureActionable } from '../actionability'
import { composedContains } from '../dom'
import { fail } from '../errors'
import { dispatchHtmlDrag, dispatchPointerDrag } from '../events'
import type { PageInput } from '../input'
import { assertConfirmedIfRisky, type RiskGate } from '../risk-gate'

/** An element the browser drags natively (HTML5 drag and drop): marked draggable, or inside one that is. */
function html5Draggable(el: Element): boolean {
  return !!el.closest('[draggable="true"]')
}

/**
 * Drags the element onto another: both checked as a click's target is (in view, visible, not covered). Trusted
 * input where it can be had: a pointer drag (dnd-kit, react-beautiful-dnd, SortableJS's fallback) as mouse moves,
 * an HTML5 one as the browser's own drag. Otherwise DOM events: pointer and mouse events, or drag events sharing
 * one DataTransfer.
 */
export async function dragElement(win: Window, action: Action, el: Element, onto: Element, input: PageInput, gate?: RiskGate): Promise<void> {
  if (el === onto || composedContains(el, onto)) fail('ACTION_FAILED', 'an element cannot be dragged onto itself')
  assertConfirmedIfRisky(win, action, el, { ...gate, dropTarget: onto })
  // Both in view: the drop target first, then the source (scrolled only if the first scroll hid it), then the target's point again.
  ensureActionable(onto, { requireEnabled: false })
  const from = ensureActionable(el)
  const to = ensureActionable(onto, { requireEnabled: false })
  const html5 = html5Draggable(el)
  if (await input.drag(from, to, html5)) return
  input.usedDom()
  if (html5) {
    dispatchHtmlDrag(from.hit, to.hit, from, to)
    return
  }
  await dispatchPointerDrag(from.hit, from, to, (x, y) => deepElementFromPoint(el.ownerDocument, x, y))
}

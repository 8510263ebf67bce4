import type { ActionType } from '../../../protocol/action'
import { deepActiveElement } from './dom'
import { SETTLE_HOVER_MS, SETTLE_STILL, type SettleOptions } from './settle'
import { SETTLE_SUGGEST_MS, suggestsAsTyped } from './suggests'

/**
 * How long the page is watched after an action of this type, decided once the action is done: a hover gets time for
 * a menu that opens late, typing into a field that suggests gets its debounce (the field it left focused says which),
 * other typing and a scroll two frames, a click the full quiet window.
 */
export function settleOptionsFor(type: ActionType, doc: Document): SettleOptions {
  if (type === 'hover') return { unchangedMs: SETTLE_HOVER_MS }
  if (type === 'type') return suggestsAsTyped(deepActiveElement(doc)) ? { unchangedMs: SETTLE_SUGGEST_MS } : SETTLE_STILL
  if (type === 'scroll') return SETTLE_STILL
  return {}
}

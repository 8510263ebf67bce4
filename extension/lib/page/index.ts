/**
 * The page library the content script runs: perception (observePage), actions (runPageAction) and screenshot
 * masking. Everything takes the Window it works on, so it runs the same in a same-origin frame.
 */
export { observePage } from './observe'
export { runPageAction, type RunActionOptions } from './run-action'
export { maskSensitiveFields } from './mask'
export { createPageMemory, type PageMemory } from './memory'
export { PageActionError } from './errors'
export { createRedactor, isSecretField, MASK } from './sensitive'
export type { RiskRules } from './risk-gate'
export type { ObserveOptions, PageSnapshot, PageActionResult } from './types'
export { settleOptionsFor } from './settle-for'
export { SETTLE_HOVER_MS, SETTLE_STILL, waitForSettle, watchLoad, watchSettle, type Settled, type SettleOptions, type SettleWatch } from './settle'
export { answerListenerCensus } from './listening'
export { locateTarget, type Located } from './locate'

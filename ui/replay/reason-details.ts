import type { RiskReason } from '#protocol'
import type { ReplayStep } from './types'

/**
 * The reasons as data, only when they match the sentences one for one: otherwise the English sentences are the
 * better record to show.
 */
export function reasonDetailsOf(details: RiskReason[] | undefined, reasons: readonly string[]): { reasonDetails: RiskReason[] } | undefined {
  if (!details?.length || details.length !== reasons.length) return undefined
  return { reasonDetails: details }
}

/** The reasons the step was proposed with, for a confirmation that names none of its own. */
export const stepReasons = (step: ReplayStep) => ({ reasons: step.reasons, ...(step.reasonDetails ? { reasonDetails: step.reasonDetails } : {}) })

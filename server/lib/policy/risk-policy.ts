import type { ActionType, ElementInfo, Risk, Target } from '#protocol'
import { classifyRisk, targetWords, type RiskAssessment, type RiskRules } from '#protocol'

export interface RiskInput {
  type: ActionType
  params: Record<string, unknown>
  target?: Target
  element?: ElementInfo
  /** Where a drag drops its element. */
  dropTarget?: ElementInfo
  url?: string
  declared?: Risk
  /** What the element says, as the page named it when it was pictured for the card (a script's `#send`). */
  named?: string
}

/** The server's risk gate: every action, scripted or planned, passes through `assess` before it is proposed. */
export function createRiskPolicy(rules: RiskRules) {
  return {
    assess(input: RiskInput): RiskAssessment {
      const { target } = input
      return classifyRisk(
        {
          actionType: input.type,
          params: input.params,
          element: input.element,
          dropTarget: input.dropTarget,
          selector: target?.by === 'selector' ? target.value : undefined,
          // The element's own label says more than the words it was found by (and would repeat them).
          targetText: input.element ? undefined : (targetWords(target) ?? input.named),
          url: input.url,
          declared: input.declared,
        },
        rules,
      )
    },
  }
}
export type RiskPolicy = ReturnType<typeof createRiskPolicy>

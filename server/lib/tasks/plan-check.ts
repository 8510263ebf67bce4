import type { Action, ElementInfo, Risk, RiskReason } from '#protocol'
import { actionSpec, onPlanSites, planSiteOf, riskKindsOf } from '#protocol'
import type { PlanRecord } from './task-record'

export interface PlannedStep {
  type: Action['type']
  params: Record<string, unknown>
  element?: ElementInfo
  /** The page the step is taken on. */
  pageUrl?: string
}

/** Where a step acts: the address it opens, the link it follows, else the page it is taken on. */
function whereStepActs(step: PlannedStep): string | undefined {
  if (step.type === 'navigate' && typeof step.params.url === 'string') return step.params.url
  const href = step.element?.attributes?.href
  // A double click's first click follows the link as a click does.
  if ((step.type === 'click' || step.type === 'double_click') && href && step.pageUrl) {
    try {
      return new URL(href, step.pageUrl).href
    } catch {
      return step.pageUrl
    }
  }
  return step.pageUrl
}

/**
 * Why a step of a plan-first task leaves the plan the person approved: it acts on a site the plan does not name,
 * or it is a kind of risky action nothing the plan sends covers. Steps that only read, scroll or wait never leave
 * it. Empty before the plan is approved, and for every step it covers — which says nothing of the step's own risk:
 * a risky step in the plan is confirmed as always.
 */
export function offPlanReasons(plan: PlanRecord | undefined, step: PlannedStep, risk: Risk, details: readonly RiskReason[]): RiskReason[] {
  const approved = plan?.state === 'approved' ? plan.approved : undefined
  if (!approved || actionSpec(step.type)?.risk !== 'judged') return []
  const reasons: RiskReason[] = []
  const where = whereStepActs(step)
  if (where && !onPlanSites([...approved.sites, ...(plan?.addedSites ?? [])], where)) reasons.push({ code: 'off-plan-site', site: planSiteOf(where) })
  if (risk !== 'low') {
    const covered = new Set([...approved.sends.map((s) => s.kind), ...(plan?.addedKinds ?? [])])
    for (const kind of riskKindsOf(details)) if (!covered.has(kind)) reasons.push({ code: 'off-plan-send', kind })
  }
  return reasons
}

/** The person approved an off-plan step: its site and kinds are theirs from now on in this task, not asked about again. */
export function widenPlan(plan: PlanRecord | undefined, details: readonly RiskReason[] | undefined): void {
  if (plan?.state !== 'approved' || !details) return
  for (const d of details) {
    if (d.code === 'off-plan-site' && d.site) plan.addedSites = [...new Set([...(plan.addedSites ?? []), d.site])]
    if (d.code === 'off-plan-send' && d.kind) plan.addedKinds = [...new Set([...(plan.addedKinds ?? []), d.kind])]
  }
}

import { z } from 'zod'
import { RiskKind, type RiskReason } from './risk-reasons'
import { namesOneSite } from './site'
import { compileWriteRules, DEFAULT_WRITE_RULES } from './write-rules-schema'
import { FilledText } from './text'

/**
 * A plan in words, proposed by the planner before a plan-first task runs and approved (or edited) once by the
 * person: the steps it will take, the sites it will visit, and what it will send. The running task is held to it:
 * a step on another site, or a kind of risky action no planned send covers, is asked about again. It approves
 * nothing by itself: a risky step in the plan is still confirmed.
 */

/** The host (and port) a site names, whatever it is: "shop.example.com", "127.0.0.1:3000", a web address. */
function hostOfSite(site: string): { hostname: string; port?: string } | null {
  const text = site.trim()
  if (!text || /\s/.test(text)) return null
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`)
    return url.hostname ? { hostname: url.hostname.toLowerCase(), ...(url.port ? { port: url.port } : {}) } : null
  } catch {
    return null
  }
}

const namesASite = (hostname: string) => namesOneSite(hostname, compileWriteRules(DEFAULT_WRITE_RULES).suffixes)

/**
 * "shop.example.com", "127.0.0.1:3000" or a web address; what a plan's site matches is its host (and port, when
 * given). Null for what names no one site ("com", "co.uk", "*.example.com", "intranet"): a plan approving those
 * would approve every site under them.
 */
export function planSiteHost(site: string): { hostname: string; port?: string } | null {
  const host = hostOfSite(site)
  return host && namesASite(host.hostname) ? host : null
}

const line = FilledText(500)
export const PlanSite = line.refine(
  (s) => planSiteHost(s) !== null,
  'give a site such as shop.example.com or 127.0.0.1:3000: one host or domain, not a public suffix (com, co.uk, github.io), a single word or a * pattern',
)

/** Something the task will send or submit, and the kind of risky action it is. */
export const PlannedSend = z.strictObject({ what: line, kind: RiskKind })
export type PlannedSend = z.infer<typeof PlannedSend>

export const TaskPlan = z.strictObject({
  steps: z.array(line).min(1).max(30),
  sites: z.array(PlanSite).min(1).max(20),
  sends: z.array(PlannedSend).max(20),
})
export type TaskPlan = z.infer<typeof TaskPlan>

/** A plan-first task's plan as the views show it: proposed and waiting for the person, or approved. */
export const TaskPlanView = z.object({
  state: z.enum(['proposed', 'approved']),
  proposed: TaskPlan,
  /** What the person approved: the proposal, or their edit of it. */
  approved: TaskPlan.optional(),
  /** The person changed the proposal before approving it. */
  edited: z.boolean().optional(),
})
export type TaskPlanView = z.infer<typeof TaskPlanView>

/** Whether a web address is on one of the plan's sites: the same host or one under it, and the port when the site names one. */
export function onPlanSites(sites: readonly string[], url: string): boolean {
  let target: URL
  try {
    target = new URL(url)
  } catch {
    return true
  }
  if (!/^https?:$/.test(target.protocol)) return true
  const host = target.hostname.toLowerCase()
  return sites.some((site) => {
    const planned = hostOfSite(site)
    if (!planned) return false
    // Only a site covers the hosts under it: "com" from a plan stored before such sites were refused covers none,
    // while a task's own start page on an intranet name still matches itself.
    const under = host.endsWith(`.${planned.hostname}`) && namesASite(planned.hostname)
    if (host !== planned.hostname && !under) return false
    return !planned.port || planned.port === target.port
  })
}

/** The host (and port) a person reads a site by, as an off-plan question names it. */
export const planSiteOf = (url: string): string => {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

// What a risk reason without a kind of its own sends, when it sends anything.
const KIND_OF_CODE: Partial<Record<RiskReason['code'], RiskKind>> = {
  'submit-selector': 'sending',
  'submit-form': 'sending',
  'submit-form-typed': 'sending',
  'press-send': 'sending',
  'press-enter-message': 'sending',
  'held-write': 'sending',
  'upload-file': 'sending',
  'download-url': 'download',
  'download-attr': 'download',
  'press-delete': 'deletion',
  'setting-toggle': 'permission',
  'select-settings': 'saving',
}

/** The kinds of risky action a step's risk reasons say it is. */
export function riskKindsOf(details: readonly RiskReason[]): RiskKind[] {
  const kinds = details.flatMap((d) => {
    const kind = d.kind ?? KIND_OF_CODE[d.code]
    return kind ? [kind] : []
  })
  return [...new Set(kinds)]
}

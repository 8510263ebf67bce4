import type { AuditEvent, TaskStatus } from '#protocol'
import type { Struck } from './inject'
import { actionIn, auditOf, type FaultRig, type RunTask } from './rig'

/** What one run showed: the figures count these. */
export interface Verdict {
  status: TaskStatus | 'STUCK'
  /** Effects the page saw more often than once, or differently from what was typed. */
  doubles: string[]
  /** Events the server acknowledged (to the extension, to a direct report, or in the audit before a kill) that are gone. */
  lost: string[]
  /** Broken rules of the audit: a chain that does not verify, an action dispatched, reported or observed twice. */
  audit: string[]
  /** Replies to duplicate or out-of-order reports that were not what the protocol promises. */
  replies: string[]
  /** Fault → the first progress after it (a report taken in, or the task finished), in ms. */
  recoveryMs: number | null
}

const countBy = (items: string[]) => items.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>())

/** The page's effects for this run: each at most once, exactly the expected ones when the task succeeded. */
export function checkHits(task: RunTask, hits: string[], status: TaskStatus | 'STUCK'): string[] {
  const mine = hits.filter((h) => h.startsWith(`${task.id}:`))
  const problems = [...countBy(mine)].filter(([, n]) => n > 1).map(([hit, n]) => `${hit} ×${n}`)
  const foreign = mine.filter((h) => !task.expectedHits.includes(h))
  problems.push(...foreign.map((h) => `unexpected ${h}`))
  if (status === 'SUCCEEDED' && mine.length !== task.expectedHits.length) problems.push(`succeeded with hits ${JSON.stringify(mine)}`)
  return problems
}

/** One dispatch, one report and one observation at most for every action id, on a chain that verifies. */
export function checkAudit(events: AuditEvent[], verified: { ok: boolean; problem?: string }): string[] {
  const problems = verified.ok ? [] : [`the chain does not verify: ${verified.problem}`]
  for (const type of ['action.dispatched', 'report.received', 'observation']) {
    const ids = events.filter((e) => e.type === type && e.actionId).map((e) => e.actionId!)
    for (const [id, n] of countBy(ids)) if (n > 1) problems.push(`${type} ×${n} for ${id}`)
  }
  const seqs = events.map((e) => e.seq)
  if (seqs.some((s, i) => s !== i + (seqs[0] ?? 0))) problems.push('the audit has a gap in its seq numbers')
  return problems
}

/** Every acknowledgement the run saw still has its event in the audit. */
export function checkLost(rig: FaultRig, task: RunTask, events: AuditEvent[], struck: Struck): string[] {
  const lost: string[] = []
  const has = (type: string, actionId: string) => events.some((e) => e.type === type && e.actionId === actionId)
  for (const exchange of rig.proxy.exchanges) {
    const action = actionIn(exchange)
    if (action?.taskId === task.taskId && !has('action.dispatched', action.actionId)) lost.push(`dispatch of ${action.actionId}`)
    const reply = exchange.response?.json?.data
    const applied = exchange.path === '/api/agent/report' && exchange.json?.taskId === task.taskId && exchange.response?.status === 200 && reply?.duplicate === false
    if (applied && !(has('report.received', exchange.json.actionId) && has('observation', exchange.json.actionId))) lost.push(`report of ${exchange.json.actionId}`)
  }
  for (const reply of struck.direct) {
    if (reply.status === 200 && reply.body?.data?.duplicate === false && !has('report.received', reply.actionId)) lost.push(`direct report of ${reply.actionId}`)
  }
  const after = new Map(events.map((e) => [e.seq, e.hash]))
  for (const event of struck.before ?? []) if (after.get(event.seq) !== event.hash) lost.push(`event ${event.seq} (${event.type}) seen before the kill`)
  return lost
}

/** The first progress at or after the fault: a report the server took in, or the task's end. */
export function recoveryOf(events: AuditEvent[], faultAt: number | null): number | null {
  if (faultAt === null) return null
  const progress = events.find((e) => (e.type === 'report.received' || e.type === 'task.finished') && Date.parse(e.ts) >= faultAt)
  return progress ? Date.parse(progress.ts) - faultAt : null
}

export async function judge(rig: FaultRig, task: RunTask, struck: Struck, status: TaskStatus | 'STUCK'): Promise<Verdict> {
  const { events, verified } = await auditOf(rig, task.taskId)
  return {
    status,
    doubles: checkHits(task, rig.h.site.hits, status),
    lost: checkLost(rig, task, events, struck),
    audit: checkAudit(events, verified),
    replies: struck.problems,
    recoveryMs: recoveryOf(events, struck.faultAt),
  }
}

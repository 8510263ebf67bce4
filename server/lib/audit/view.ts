import type { AuditView } from '#protocol'
import { parseEvents, verifyChain } from './chain'
import type { AuditLog } from './log'

/** A task's events and the verdict on their chain, read from one snapshot so the two agree; null without a log. */
export async function readAuditView(log: Pick<AuditLog, 'exists' | 'readRaw'>, taskId: string): Promise<AuditView | null> {
  if (!(await log.exists(taskId))) return null
  const raw = await log.readRaw(taskId)
  return { taskId, events: parseEvents(raw), verified: verifyChain(raw) }
}

import { defineEventHandler, getValidatedRouterParams } from 'h3'
import { AuditTaskParams, type AuditView } from '#protocol'
import { useAuditLog } from '../../../lib/app/use-audit'
import { parseEvents, verifyChain } from '../../../lib/audit/chain'
import { notFound } from '../../../lib/http/errors'

/** A task's events and the verdict on their chain, read from one snapshot so the two agree. */
export default defineEventHandler(async (event) => {
  const { taskId } = await getValidatedRouterParams(event, AuditTaskParams.parse)
  const log = useAuditLog()
  if (!(await log.exists(taskId))) throw notFound('There is no audit log for that task.')
  const raw = await log.readRaw(taskId)
  const data: AuditView = { taskId, events: parseEvents(raw), verified: verifyChain(raw) }
  return { ok: true, data }
})

import { defineEventHandler, getValidatedRouterParams } from 'h3'
import { AuditTaskParams } from '#protocol'
import { auditViewOf } from '../../../lib/app/use-audit'
import { notFound } from '../../../lib/http/errors'

/** A task's events and the verdict on their chain, read from one snapshot so the two agree. */
export default defineEventHandler(async (event) => {
  const { taskId } = await getValidatedRouterParams(event, AuditTaskParams.parse)
  const data = await auditViewOf(taskId)
  if (!data) throw notFound('There is no audit log for that task.')
  return { ok: true, data }
})

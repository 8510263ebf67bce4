import { pipeline } from 'node:stream/promises'
import { defineEventHandler, getValidatedRouterParams, setResponseHeaders } from 'h3'
import { AuditTaskParams } from '#protocol'
import { exportTaskZip, useAuditLog } from '../../../lib/app/use-audit'
import { notFound } from '../../../lib/http/errors'

/** The task's audit as a zip, streamed as it is built. */
export default defineEventHandler(async (event) => {
  const { taskId } = await getValidatedRouterParams(event, AuditTaskParams.parse)
  if (!(await useAuditLog().exists(taskId))) throw notFound('There is no audit log for that task.')
  const zip = await exportTaskZip(taskId)
  setResponseHeaders(event, {
    'content-type': 'application/zip',
    'content-disposition': `attachment; filename="tandem-audit-${taskId}.zip"`,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  })
  // Once bytes are out an error envelope can no longer be sent: a failure cuts the download short instead,
  // and the zip's missing central directory makes that visible to whoever opens it.
  await pipeline(zip, event.node.res).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE') console.error('[tandem] audit export failed', error)
  })
})

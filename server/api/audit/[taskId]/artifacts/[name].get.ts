import { pipeline } from 'node:stream/promises'
import { defineEventHandler, getValidatedRouterParams, setResponseHeaders } from 'h3'
import { AuditArtifactParams } from '#protocol'
import { openArtifact } from '../../../../lib/app/use-audit'
import { notFound } from '../../../../lib/http/errors'

/** One screenshot of a task, served as the image it was checked to be and never as anything a browser would run. */
export default defineEventHandler(async (event) => {
  const { taskId, name } = await getValidatedRouterParams(event, AuditArtifactParams.parse)
  const opened = await openArtifact(taskId, name)
  if (!opened) throw notFound('That task has no artifact of that name.')
  setResponseHeaders(event, {
    'content-type': opened.contentType,
    'content-length': opened.bytes,
    'content-disposition': `inline; filename="${opened.name}"`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    // Names are never reused, so a copy stays right; private because the route needs the token.
    'cache-control': 'private, max-age=31536000, immutable',
  })
  await pipeline(opened.stream, event.node.res).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE') console.error('[tandem] artifact read failed', error)
  })
})

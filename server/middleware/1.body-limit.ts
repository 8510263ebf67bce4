import { defineEventHandler } from 'h3'
import { useConfig } from '../lib/app/use-config'
import { BodyTooLargeError, readLimitedBody } from '../lib/http/body-limit'
import { payloadTooLarge } from '../lib/http/errors'

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
// h3 reads a body it finds under this symbol instead of the socket.
const RAW_BODY = Symbol.for('h3RawBody')

export default defineEventHandler(async (event) => {
  if (!WITH_BODY.has(event.method)) return
  const { maxBodyBytes, maxReportBytes } = useConfig()
  const limit = event.path.startsWith('/api/agent/report') ? maxReportBytes : maxBodyBytes
  try {
    const body = await readLimitedBody(event.node.req, limit)
    ;(event.node.req as unknown as Record<symbol, unknown>)[RAW_BODY] = Promise.resolve(body)
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw payloadTooLarge(error.limit)
    throw error
  }
})

import { send, setResponseHeader, setResponseStatus } from 'h3'
import { defineNitroErrorHandler } from 'nitropack/runtime'
import { toErrorEnvelope } from './lib/http/envelope'

export default defineNitroErrorHandler((error, event) => {
  const { status, body } = toErrorEnvelope(error)
  if (status >= 500) console.error('[tandem] internal error', error.cause ?? error)
  setResponseStatus(event, status, body.error.code)
  setResponseHeader(event, 'content-type', 'application/json; charset=utf-8')
  setResponseHeader(event, 'cache-control', 'no-store')
  return send(event, JSON.stringify(body))
})

import { send, setResponseHeader, setResponseStatus } from 'h3'
import { defineNitroErrorHandler } from 'nitropack/runtime'
import { toErrorEnvelope } from './lib/http/envelope'
import { refusalLine } from './lib/http/refusal-line'

export default defineNitroErrorHandler((error, event) => {
  const { status, body } = toErrorEnvelope(error)
  const refusal = refusalLine(error, body.error.code, event.method, event.path)
  if (refusal) console.warn(refusal)
  else if (status >= 500) console.error('[tandem] internal error', error.cause ?? error)
  setResponseStatus(event, status, body.error.code)
  setResponseHeader(event, 'content-type', 'application/json; charset=utf-8')
  setResponseHeader(event, 'cache-control', 'no-store')
  return send(event, JSON.stringify(body))
})

import { defineEventHandler, getRequestHeader, setResponseHeader } from 'h3'
import { CLIENT_HEADERS } from '#protocol'
import { useToken } from '../lib/app/use-token'
import { bearerOf, tokenMatches } from '../lib/auth/token'
import { unauthorized } from '../lib/http/errors'
import { nanoid } from 'nanoid'

const TRACE_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** Every request: a trace id echoed back and the token on everything but health (the Host is checked in plugins/host-guard.ts). */
export default defineEventHandler((event) => {
  const given = getRequestHeader(event, CLIENT_HEADERS.traceId)
  const traceId = given && TRACE_ID.test(given) ? given : nanoid(12)
  event.context.traceId = traceId
  setResponseHeader(event, 'X-Trace-Id', traceId)

  if (event.path === '/api/health' || event.path.startsWith('/api/health?')) return
  const token = bearerOf(getRequestHeader(event, 'authorization'))
  if (!tokenMatches(useToken().token, token)) throw unauthorized()
})

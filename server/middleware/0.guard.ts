import { defineEventHandler, getRequestHeader, setResponseHeader } from 'h3'
import { CLIENT_HEADERS } from '#protocol'
import { useAuthenticate } from '../lib/app/use-authenticate'
import { bearerOf } from '../lib/auth/token'
import { accessOf } from '../lib/auth/route-access'
import { forbidden, unauthorized } from '../lib/http/errors'
import { nanoid } from 'nanoid'

const TRACE_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * Every request: a trace id echoed back, then who it is (the token proves it, lib/auth/authenticate.ts) and whether
 * the route accepts them (lib/auth/route-access.ts). The Host is checked before this, in plugins/host-guard.ts.
 */
export default defineEventHandler(async (event) => {
  const given = getRequestHeader(event, CLIENT_HEADERS.traceId)
  const traceId = given && TRACE_ID.test(given) ? given : nanoid(12)
  event.context.traceId = traceId
  setResponseHeader(event, 'X-Trace-Id', traceId)

  const accepts = accessOf(event.method, event.path)
  if (accepts.includes('anyone')) return
  const principal = await useAuthenticate()(bearerOf(getRequestHeader(event, 'authorization')), {
    clientId: getRequestHeader(event, CLIENT_HEADERS.clientId),
    surface: getRequestHeader(event, CLIENT_HEADERS.surface),
  })
  if (!principal) throw unauthorized()
  if (!accepts.includes(principal.kind)) {
    throw forbidden('This is an agent token: it opens /mcp and nothing else. Approvals, answers and the agent API are the person’s own.')
  }
  event.context.principal = principal
})

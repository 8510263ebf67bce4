import { getRequestHeader, type H3Event } from 'h3'
import { CLIENT_HEADERS } from '#protocol'

/** Who made a request, for the audit. */
export interface RequestSource {
  clientId?: string
  version?: string
  userAgent?: string
  traceId?: string
  /** The MCP client behind the request, as it named itself when it connected. */
  mcp?: { name: string; version: string }
}

const clip = (value: string | undefined, max: number) => (value ? value.slice(0, max) : undefined)
const CLIENT_ID = /^[A-Za-z0-9_-]{1,128}$/

/** Who is asking, as far as the request says: recorded in the audit beside what they asked. */
export function sourceOf(event: H3Event, clientId?: string): RequestSource {
  const header = getRequestHeader(event, CLIENT_HEADERS.clientId)
  const id = clientId ?? (header && CLIENT_ID.test(header) ? header : undefined)
  return {
    ...(id ? { clientId: id } : {}),
    ...(getRequestHeader(event, CLIENT_HEADERS.version) ? { version: clip(getRequestHeader(event, CLIENT_HEADERS.version), 64) } : {}),
    ...(getRequestHeader(event, 'user-agent') ? { userAgent: clip(getRequestHeader(event, 'user-agent'), 512) } : {}),
    ...(event.context.traceId ? { traceId: String(event.context.traceId) } : {}),
  }
}

/** Aborts when the client goes away, so a long-poll stops waiting for nobody. */
export function closedSignal(event: H3Event): AbortSignal {
  const controller = new AbortController()
  event.node.res.once('close', () => controller.abort())
  return controller.signal
}

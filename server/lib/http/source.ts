import { getRequestHeader, type H3Event } from 'h3'
import { CLIENT_HEADERS, type Principal } from '#protocol'

/** Who made a request, for the audit. */
export interface RequestSource {
  clientId?: string
  version?: string
  userAgent?: string
  traceId?: string
  /** The MCP client behind the request, as it named itself when it connected. */
  mcp?: { name: string; version: string }
  /** Who the request's token proved it to be (middleware/0.guard.ts): what the audit says did it. */
  principal?: Principal
}

const clip = (value: string | undefined, max: number) => (value ? value.slice(0, max) : undefined)
const CLIENT_ID = /^[A-Za-z0-9_-]{1,128}$/

/** The principal the guard authenticated for this request. */
export const principalOf = (event: H3Event): Principal | undefined => event.context.principal as Principal | undefined

/** Who a source is: what its token proved, or the owner's own scripts for a caller inside the server (tests, recovery). */
export const principalOfSource = (source: RequestSource): Principal => source.principal ?? { kind: 'owner', via: 'api' }

/** Who is asking: the principal the token proved, and what the request says of itself, recorded beside what they asked. */
export function sourceOf(event: H3Event, clientId?: string): RequestSource {
  const principal = principalOf(event)
  const header = getRequestHeader(event, CLIENT_HEADERS.clientId)
  const id = clientId ?? (header && CLIENT_ID.test(header) ? header : undefined)
  return {
    ...(id ? { clientId: id } : {}),
    ...(getRequestHeader(event, CLIENT_HEADERS.version) ? { version: clip(getRequestHeader(event, CLIENT_HEADERS.version), 64) } : {}),
    ...(getRequestHeader(event, 'user-agent') ? { userAgent: clip(getRequestHeader(event, 'user-agent'), 512) } : {}),
    ...(event.context.traceId ? { traceId: String(event.context.traceId) } : {}),
    ...(principal ? { principal } : {}),
  }
}

/** Aborts when the client goes away, so a long-poll stops waiting for nobody. */
export function closedSignal(event: H3Event): AbortSignal {
  const controller = new AbortController()
  event.node.res.once('close', () => controller.abort())
  return controller.signal
}

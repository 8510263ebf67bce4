import { getRequestURL, readBody, type H3Event } from 'h3'
import { sourceOf } from '../http/source'
import type { McpEndpoint } from './endpoint'

/** An h3 request to /mcp handed to the endpoint with its parsed body and who sent it. */
export async function handleMcpEvent(endpoint: McpEndpoint, event: H3Event): Promise<void> {
  const body = event.method === 'POST' ? await readBody(event) : undefined
  await endpoint.handle(event.node.req, event.node.res, body, { source: sourceOf(event), origin: getRequestURL(event).origin })
}

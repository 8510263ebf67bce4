import { getRequestHeader, getRequestURL, readBody, type H3Event } from 'h3'
import { redactSensitiveText } from '#protocol'
import { forbidden } from '../http/errors'
import { originAllowed } from '../http/origin'
import { principalOf, sourceOf } from '../http/source'
import { createMcpEndpoint, type McpEndpoint } from '../mcp/endpoint'
import { createMcpTools } from '../mcp/tools'
import { REDACTED } from '../privacy/redact'
import { auditViewOf } from './use-audit'
import { useConfig } from './use-config'
import { useEngine } from './use-engine'
import { useSecrets } from './use-secrets'
import { useSkills } from './use-skills'
import { TANDEM_VERSION } from '../http/version'

let endpoint: McpEndpoint | undefined

/** The server's MCP endpoint over the same engine, skills and audit as /api. */
export function useMcp(): McpEndpoint {
  if (endpoint) return endpoint
  const secrets = useSecrets()
  const settings = useConfig().redact
  const tools = createMcpTools({
    engine: useEngine(),
    skills: useSkills,
    auditView: auditViewOf,
    redact: (text) => redactSensitiveText(secrets.redact(text), settings, REDACTED),
    secretNames: () => secrets.names(),
  })
  endpoint = createMcpEndpoint(tools, { version: TANDEM_VERSION })
  return endpoint
}

/** An h3 request to /mcp, handed to the endpoint with its parsed body and who sent it; web pages are refused. */
export async function handleMcp(event: H3Event): Promise<void> {
  if (!originAllowed(getRequestHeader(event, 'origin'), useConfig().allowedHosts)) {
    throw forbidden('/mcp does not answer web pages: connect from an MCP client, not a browser.')
  }
  const principal = principalOf(event)
  if (!principal) throw forbidden('/mcp needs a token.')
  const body = event.method === 'POST' ? await readBody(event) : undefined
  await useMcp().handle(event.node.req, event.node.res, body, { source: sourceOf(event), origin: getRequestURL(event).origin, principal })
}

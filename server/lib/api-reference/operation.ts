import { okEnvelope, type PrincipalKind } from '#protocol'
import type { RouteAccess } from '../auth/route-access'
import type { RouteAnswer } from '../auth/route-answer'
import { groupOf } from './groups'
import type { createSchemaSet, JsonSchema } from './json-schema'
import { errorResponsesOf } from './responses'

type SchemaSet = ReturnType<typeof createSchemaSet>

/** Who may call a route, in words a client developer reads. */
export function principalsWords(accepts: readonly PrincipalKind[]): string {
  if (accepts.includes('anyone')) return 'Anyone: no token needed (the Host must still be loopback or one in TANDEM_ALLOWED_HOSTS).'
  const owner = 'the owner’s token (the person’s own, printed by `npm start`: the side panel, the console, their scripts)'
  if (accepts.includes('agent')) return `${owner[0]!.toUpperCase()}${owner.slice(1)} or an agent token (scope \`mcp\`, made with POST /api/tokens); an agent sees its own tasks only.`
  return `Only ${owner}; an agent token is refused with FORBIDDEN.`
}

/** `/api/audit/:taskId` as OpenAPI writes it: `/api/audit/{taskId}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}')

/** `GET /api/audit/:taskId/export` → `getAuditTaskIdExport`. */
export function operationIdOf(route: RouteAccess): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter((w) => w && w !== 'api')
  return route.method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')
}

/** A named schema's own JSON Schema: the component a `$ref` points at. */
function resolved(schema: JsonSchema, schemas: SchemaSet): JsonSchema {
  const ref = typeof schema.$ref === 'string' ? schema.$ref.split('/').pop()! : undefined
  return ref ? (schemas.components()[ref] ?? schema) : schema
}

/** An object schema's fields as OpenAPI parameters of one place (`path` or `query`). */
function parametersOf(schema: JsonSchema, where: 'path' | 'query', schemas: SchemaSet) {
  const object = resolved(schema, schemas) as { properties?: Record<string, JsonSchema>; required?: string[] }
  return Object.entries(object.properties ?? {}).map(([name, field]) => ({
    name,
    in: where,
    required: where === 'path' || (object.required ?? []).includes(name),
    schema: field,
  }))
}

const MCP_SESSION = {
  name: 'Mcp-Session-Id',
  in: 'header',
  required: false,
  description: 'The session initialize answered with; every later request of the session sends it.',
  schema: { type: 'string' },
}

/** The success responses of a route, by status. */
function successOf(answer: RouteAnswer, method: RouteAccess['method'], schemas: SchemaSet): Record<string, unknown> {
  const json = (schema: JsonSchema) => ({ 'application/json': { schema } })
  switch (answer.kind) {
    case 'data':
      return { [answer.status]: { description: 'Done: `data` is the answer.', content: json(schemas.of(okEnvelope(answer.data), 'output')) } }
    case 'body':
      return { 200: { description: 'The answer (no envelope).', content: json(schemas.of(answer.body, 'output')) } }
    case 'none':
      return { 204: { description: 'Taken; nothing to answer.' } }
    case 'file':
      return { 200: { description: answer.what, content: { [answer.mediaType]: { schema: { type: 'string', contentEncoding: 'binary' } } } } }
    case 'mcp': {
      const rpc = { description: 'JSON-RPC 2.0 answers, as MCP’s Streamable HTTP transport sends them.', content: { ...json({ type: 'object' }), 'text/event-stream': { schema: { type: 'string' } } } }
      if (method === 'POST') return { 200: rpc, 202: { description: 'A notification or answer was taken; nothing to send back.' } }
      if (method === 'GET') return { 200: { description: 'The session’s stream of messages from the server.', content: { 'text/event-stream': { schema: { type: 'string' } } } } }
      return { 200: { description: 'The session is ended.' } }
    }
  }
}

/** One route as an OpenAPI operation. */
export function operationOf(route: RouteAccess, schemas: SchemaSet): Record<string, unknown> {
  const open = route.accepts.includes('anyone')
  const mcp = route.answers.kind === 'mcp'
  const parameters = [
    ...(route.params ? parametersOf(schemas.of(route.params, 'input'), 'path', schemas) : []),
    ...(route.query ? parametersOf(schemas.of(route.query, 'input'), 'query', schemas) : []),
    ...(mcp && route.method !== 'POST' ? [MCP_SESSION] : []),
  ]
  const body = route.body
    ? { required: true, content: { 'application/json': { schema: schemas.of(route.body, 'input') } } }
    : mcp && route.method === 'POST'
      ? { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call…).' } } } }
      : undefined
  return {
    operationId: operationIdOf(route),
    tags: [groupOf(route.path)],
    summary: route.what,
    description: principalsWords(route.accepts),
    'x-tandem-principals': [...route.accepts],
    security: open ? [] : [{ bearer: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: { ...successOf(route.answers, route.method, schemas), ...errorResponsesOf(route) },
  }
}

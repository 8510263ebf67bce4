import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorEnvelope } from '#protocol'
import { buildOpenApi } from '../../server/lib/api-reference/openapi'
import { startServer, type TestServer } from '../support/server'

type Schema = Record<string, any>

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const doc = buildOpenApi()
const components = doc.components.schemas as Record<string, Schema>
const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(components[schema.$ref.split('/').pop()]!) : schema)

/** The least a schema accepts: its required fields only, each the smallest value of its type. */
function smallest(input: Schema): unknown {
  const schema = resolve(input)
  if (schema.const !== undefined) return schema.const
  if (schema.enum) return schema.enum[0]
  const union = schema.oneOf ?? schema.anyOf
  if (union) return smallest(union.find((s: Schema) => s.type !== 'null') ?? union[0])
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type
  switch (type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((name: string) => [name, smallest(schema.properties[name])]))
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => smallest(schema.items))
    case 'string':
      return 'a'.repeat(Math.max(schema.minLength ?? 1, 1))
    case 'integer':
    case 'number':
      return schema.minimum ?? 0
    case 'boolean':
      return false
    default:
      return null
  }
}

/** Every JSON body the document describes with required fields, MCP's aside (JSON-RPC, not a zod schema). */
const bodies = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item as Record<string, any>).flatMap(([method, op]) => {
    const schema = op.requestBody?.content?.['application/json']?.schema
    if (!schema?.$ref || path === '/mcp') return []
    return resolve(schema).required?.length ? [{ path, method: method.toUpperCase(), schema }] : []
  }),
)

describe('GET /api/openapi.json', () => {
  it('answers the API reference without a token on loopback', async () => {
    const res = await server.api('GET', '/api/openapi.json', undefined, { token: null })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(JSON.parse(JSON.stringify(doc)))
  })

  it('still refuses a Host that is not loopback', async () => {
    const status = await new Promise<number>((done, fail) => {
      request(server.url + '/api/openapi.json', { headers: { host: 'evil.example' } }, (r) => {
        r.resume().on('end', () => done(r.statusCode!))
      }).on('error', fail).end()
    })
    expect(status).toBe(403)
  })
})

describe('what the document says the live server checks', () => {
  it('has bodies to try', () => {
    expect(bodies.map((b) => `${b.method} ${b.path}`)).toEqual(expect.arrayContaining(['POST /api/agent/start', 'POST /api/tokens', 'POST /demo/messages']))
  })

  it.each(bodies.map((b) => [`${b.method} ${b.path}`, b] as const))('%s refuses a body without its required fields and takes one with them', async (_name, { path, method, schema }) => {
    const missing = await server.api(method, path, {})
    expect(missing.status).toBe(400)
    const error = ErrorEnvelope.parse(missing.body).error
    expect(error.code).toBe('BAD_REQUEST')
    const named = (error.details as { path: string }[]).map((d) => d.path.split('.')[0])
    expect(resolve(schema).required).toEqual(expect.arrayContaining([named[0]]))

    // The next step never waits for a task to hand one out.
    const body = { ...(smallest(schema) as object), ...(path === '/api/agent/next' ? { waitMs: 0 } : {}) }
    const taken = await server.api(method, path, body)
    expect(taken.status, `${method} ${path} ${JSON.stringify(body)} → ${JSON.stringify(taken.body)}`).not.toBe(400)
  })

  it('refuses a query without its required parameter and takes one with it', async () => {
    const op = (doc.paths['/api/agent/status'] as any).get
    const required = op.parameters.filter((p: any) => p.required)
    expect(required.map((p: any) => p.name)).toEqual(['taskId'])
    expect((await server.api('GET', '/api/agent/status')).status).toBe(400)
    const query = new URLSearchParams(required.map((p: any) => [p.name, smallest(p.schema)]))
    const res = await server.api('GET', `/api/agent/status?${query}`)
    expect(ErrorEnvelope.parse(res.body).error.code).toBe('NOT_FOUND')
  })
})

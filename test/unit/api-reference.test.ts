import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import * as protocol from '#protocol'
import { buildOpenApi } from '../../server/lib/api-reference/openapi'
import { renderApiMarkdown } from '../../server/lib/api-reference/markdown'
import { openApiPath } from '../../server/lib/api-reference/operation'
import { ROUTE_ACCESS, type RouteAccess } from '../../server/lib/auth/route-access'
import { serverRouteFiles } from '../support/route-files'

const doc = buildOpenApi()
const METHODS = ['get', 'post', 'delete', 'put', 'patch', 'head', 'options', 'trace']
type Operation = Record<string, any>
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).filter(([method]) => METHODS.includes(method)).map(([method, op]) => ({ path, method, op: op as Operation })),
)
const routeKey = (r: { method: string; path: string }) => `${r.method.toUpperCase()} ${r.path}`

/** Every `$ref` anywhere in a value. */
function refs(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refs)
  if (!value || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, v]) => (key === '$ref' ? [v as string] : refs(v)))
}

describe('docs/api.md', () => {
  it('is what the generator writes from the code as it is now', () => {
    const written = readFileSync('docs/api.md', 'utf8')
    expect(written === renderApiMarkdown(doc), 'docs/api.md is behind the routes or protocol/: run `npm run docs:api` and commit it').toBe(true)
  })

  it('shows each route with who may call it, its fields and its error codes', () => {
    const md = renderApiMarkdown(doc)
    expect(md).toContain('### `POST /api/agent/start`')
    expect(md).toMatch(/\| `goal` \| `string` \| yes \| 1–4000 chars \|/)
    expect(md).toMatch(/\| `planFirst` \| `boolean` \| no \|/)
    expect(md).toContain('### `GET /api/audit/:taskId/artifacts/:name`')
    expect(md).toContain('Who may call it (`owner, agent`)')
    expect(md).toMatch(/Errors: `400` BAD_REQUEST, `401` UNAUTHORIZED, `403` FORBIDDEN, `404` NOT_FOUND, `409` CONFLICT/)
  })
})

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 in shape: version, info, unique operation ids, answers, tags and refs that resolve', () => {
    expect(protocol.OpenApiDocument.parse(doc).openapi).toBe('3.1.0')
    expect(doc.info.title).toBe('Tandem API')
    const ids = operations.map((o) => o.op.operationId)
    expect(new Set(ids).size).toBe(ids.length)
    const tags = new Set((doc.tags as { name: string }[]).map((t) => t.name))
    const schemes = Object.keys((doc.components as any).securitySchemes)
    for (const { path, op } of operations) {
      expect(path).toMatch(/^\//)
      expect(Object.keys(op.responses).some((s) => /^2\d\d$/.test(s)), path).toBe(true)
      for (const [status, response] of Object.entries(op.responses)) {
        expect(status).toMatch(/^[1-5]\d\d$/)
        expect(typeof (response as { description?: unknown }).description).toBe('string')
      }
      op.tags.forEach((t: string) => expect(tags.has(t)).toBe(true))
      op.security.forEach((s: object) => Object.keys(s).forEach((k) => expect(schemes).toContain(k)))
      // Every `{name}` of the path is a required path parameter, and there are no others.
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
      const inPath = (op.parameters ?? []).filter((p: any) => p.in === 'path')
      expect(inPath.map((p: any) => p.name).sort()).toEqual(templated.sort())
      inPath.forEach((p: any) => expect(p.required).toBe(true))
    }
    for (const ref of refs(doc)) {
      expect(ref).toMatch(/^#\/components\/schemas\//)
      expect(doc.components.schemas, ref).toHaveProperty([ref.split('/').pop()!])
    }
  })

  it('has one operation for every route in ROUTE_ACCESS and every route file, and nothing else', () => {
    const documented = operations.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort()
    expect(documented).toEqual(ROUTE_ACCESS.map((r) => routeKey({ method: r.method, path: openApiPath(r.path) })).sort())
    expect(documented).toEqual(serverRouteFiles().map((f) => openApiPath(f.route)).sort())
  })

  it('says which principals each route accepts, and asks a token of every route but the open ones', () => {
    for (const route of ROUTE_ACCESS) {
      const op = (doc.paths[openApiPath(route.path)] as Record<string, Operation>)[route.method.toLowerCase()]!
      expect(op['x-tandem-principals']).toEqual(route.accepts)
      expect(op.security).toEqual(route.accepts.includes('anyone') ? [] : [{ bearer: [] }])
      expect(op.summary).toBe(route.what)
    }
  })

  it('describes each body as the server reads it and each answer as it writes it', () => {
    const schemas = doc.components.schemas as Record<string, any>
    expect(schemas.StartBody.required).toEqual(['goal'])
    const start = (doc.paths['/api/agent/start'] as any).post
    expect(start.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/StartBody' })
    expect(start.responses['200'].content['application/json'].schema.properties.data).toEqual({ $ref: '#/components/schemas/StartData' })
    expect(start.responses['503'].content['application/json'].schema.allOf[1].properties.error.properties.code.enum).toEqual(['LLM_NOT_CONFIGURED', 'UNAVAILABLE'])
    const status = (doc.paths['/api/agent/status'] as any).get
    expect(status.parameters).toEqual([expect.objectContaining({ name: 'taskId', in: 'query', required: true })])
    // A held request's fields are optional as the extension sends them, always there as the server answers them.
    expect(schemas.HeldRequest.required).not.toContain('fields')
    expect(schemas.HeldRequestOutput.required).toContain('fields')
    expect((doc.paths['/api/tokens'] as any).post.responses).toHaveProperty('201')
    expect((doc.paths['/demo/messages'] as any).post.responses['204']).toBeDefined()
  })
})

describe('each route validates with the schemas the reference shows', () => {
  const READERS = { body: 'readValidatedBody', query: 'getValidatedQuery', params: 'getValidatedRouterParams' } as const
  const files = new Map(serverRouteFiles().map((f) => [f.route, f.file]))
  it.each(ROUTE_ACCESS.map((r) => [routeKey(r), r] as [string, RouteAccess]))('%s', (key, route) => {
    const source = readFileSync(files.get(key)!, 'utf8')
    for (const [part, reader] of Object.entries(READERS) as [keyof typeof READERS, string][]) {
      const named = new RegExp(`${reader}\\(event, (\\w+)\\.parse\\)`).exec(source)?.[1]
      const used = named ? (protocol as Record<string, unknown>)[named] : undefined
      expect(named === undefined || used !== undefined, `${key} validates its ${part} with ${named}, which protocol/ does not export`).toBe(true)
      expect(used, `${key}: the ${part} schema in ROUTE_ACCESS is not the one its handler validates with`).toBe(route[part])
    }
  })
})

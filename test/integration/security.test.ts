import { readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { connect } from 'node:net'
import { dirname, join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorEnvelope } from '#protocol'
import { recordApprovedOrder } from '../support/approved-order'
import { startServer, type TestServer } from '../support/server'
import { accessOf } from '../../server/lib/auth/route-access'

interface Raw {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** node:http sends the path and Host exactly as given; fetch would normalise `..` and refuse a foreign Host. */
function raw(server: TestServer, method: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  const { port } = new URL(server.url)
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let body = ''
      res.setEncoding('latin1')
      res.on('data', (c) => (body += c)).on('end', () => done({ status: res.statusCode!, headers: res.headers, body }))
    })
    req.on('error', fail).end()
  })
}

/** The server's route files as method and path, `[param]` kept: a new route is covered without editing this test. */
function routeFiles(): { method: string; route: string }[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((entry) => (statSync(join(dir, entry)).isDirectory() ? walk(join(dir, entry)) : [join(dir, entry)]))
  // server/api serves under /api; server/routes (the MCP endpoint) at the root.
  return [['server/api', '/api/'], ['server/routes', '/']].flatMap(([root, prefix]) =>
    walk(root!).map((file) => {
      const [, name, method] = /^(.*)\.(get|post|delete)\.ts$/.exec(relative(root!, file).split('\\').join('/'))!
      return { method: method!.toUpperCase(), route: prefix + name!.replace(/(^|\/)index$/, '') }
    }),
  )
}

let server: TestServer
let taskId: string
let artifact: string
let root: string
const SENTINEL = 'SENTINEL-outside-the-audit-folder'

beforeAll(async () => {
  server = await startServer()
  taskId = await recordApprovedOrder(server, { goal: 'order the cart' })
  const events = (await server.api('GET', `/api/audit/${taskId}`)).body.data.events as { data: { artifacts?: { name: string }[] } }[]
  artifact = events.flatMap((e) => e.data.artifacts ?? [])[0]!.name
  root = dirname(server.auditDir)
  // Files a traversal would aim at: the token, a lookalike image next to the audit folder, a symlink planted inside it.
  writeFileSync(join(root, 'secret.png'), Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(SENTINEL)]))
  symlinkSync(join(server.dataDir, 'token'), join(server.auditDir, taskId, 'artifacts', '0009-after-planted000.png'))
}, 60_000)
afterAll(() => server.close())

const concrete = (route: string) =>
  route.replace('[taskId]', taskId).replace('[name]', artifact).replace('[slug]', 'no-such-skill')

function expectRefused(res: Raw, what: string, code?: string) {
  expect(res.status, what).toBeGreaterThanOrEqual(400)
  expect(res.status, what).toBeLessThan(500)
  const envelope = ErrorEnvelope.parse(JSON.parse(res.body))
  if (code) expect(envelope.error.code, what).toBe(code)
  expect(res.body, what).not.toContain(server.token)
  expect(res.body, what).not.toContain(SENTINEL)
}

describe('the token', () => {
  const routes = routeFiles()

  it('finds every route file', () => {
    expect(routes.length).toBeGreaterThanOrEqual(20)
    expect(routes).toContainEqual({ method: 'GET', route: '/api/audit/[taskId]/artifacts/[name]' })
    expect(routes).toContainEqual({ method: 'POST', route: '/mcp' })
  })

  it('is needed on every route but those anyone may call (health, the API reference, the demo page’s form): none or a wrong one gets a 401 envelope', async () => {
    for (const { method, route } of routes) {
      const path = concrete(route)
      const body = method === 'POST' || method === 'DELETE' ? '{}' : undefined
      for (const authorization of [undefined, 'Bearer wrong-token', `Bearer ${server.token}x`, server.token]) {
        const headers: Record<string, string> = { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) }
        const res = await fetch(server.url + path, { method, headers, body })
        const what = `${method} ${path} ${authorization ?? 'no token'}`
        if (route === '/api/health' || route === '/api/openapi.json') {
          expect(res.status, what).toBe(200)
          continue
        }
        if (accessOf(method, path).includes('anyone')) {
          // The demo page's form checks what it is sent, token or not: an empty message is a 400 envelope.
          expect(res.status, what).toBe(400)
          expect(ErrorEnvelope.parse(await res.json()).error.code, what).toBe('BAD_REQUEST')
          continue
        }
        expect(res.status, what).toBe(401)
        expect(ErrorEnvelope.parse(await res.json()).error.code, what).toBe('UNAUTHORIZED')
      }
    }
  })
})

describe('CORS', () => {
  it('allows no web origin: a preflight and a request from another site get no Access-Control-Allow-Origin', async () => {
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1.evil.example']) {
      const preflight = await raw(server, 'OPTIONS', '/api/agent/start', {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      })
      expect(preflight.status, origin).toBeGreaterThanOrEqual(400)
      for (const res of [
        preflight,
        await raw(server, 'GET', '/api/health', { origin }),
        await raw(server, 'GET', '/api/agent/tasks', { origin, authorization: `Bearer ${server.token}` }),
      ]) {
        expect(res.headers['access-control-allow-origin'], origin).toBeUndefined()
        expect(res.headers['access-control-allow-credentials'], origin).toBeUndefined()
        expect(res.headers['access-control-allow-headers'], origin).toBeUndefined()
      }
    }
  })

  it("serves the extension without CORS: its host permissions cover the server, and its calls from its origin work", async () => {
    // Extension pages and its service worker skip CORS for origins in host_permissions, so the server grants none.
    const manifest = JSON.parse(readFileSync('dist/chrome-mv3/manifest.json', 'utf8'))
    // The server's loopback origins and nothing else: every other site is the person's to grant, one at a time.
    expect(manifest.host_permissions).toEqual(['http://127.0.0.1/*', 'http://localhost/*'])
    expect(JSON.stringify(manifest)).not.toContain('<all_urls>')
    // Screenshots of the task tab (in front or not) come through the debugger, which needs no host permission.
    expect(manifest.permissions).toEqual(expect.arrayContaining(['debugger', 'activeTab']))
    const origin = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop'
    const list = await server.api('GET', '/api/agent/tasks', undefined, { headers: { origin } })
    expect(list.status).toBe(200)
    const next = await server.api('POST', '/api/agent/next', { clientId: 'client_cors', waitMs: 0 }, { headers: { origin } })
    expect(next.status).toBe(200)
    expect(next.body.ok).toBe(true)
  })
})

describe('the Host header (DNS rebinding)', () => {
  const foreign = ['evil.example', 'evil.example:80', 'localhost.evil.example', '127.0.0.1.evil.example', '127.0.0.1@evil.example', '0.0.0.0', '[::ffff:7f00:1]']

  it('refuses a foreign Host on the API, with or without the token, and on the console shell and its files', async () => {
    const html = await (await fetch(`${server.url}/console/`)).text()
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)![1]!
    for (const host of foreign) {
      for (const [method, path, headers] of [
        ['GET', '/api/health', {}],
        ['GET', '/api/agent/tasks', { authorization: `Bearer ${server.token}` }],
        ['GET', `/api/audit/${taskId}/artifacts/${artifact}`, { authorization: `Bearer ${server.token}` }],
        ['OPTIONS', '/api/agent/start', { origin: 'http://evil.example' }],
        ['GET', '/console/', {}],
        ['GET', '/console', {}],
        ['GET', script, {}],
      ] as const) {
        const res = await raw(server, method, path, { ...headers, host })
        expect(res.status, `${host} ${method} ${path}`).toBe(403)
        expectRefused(res, `${host} ${path}`, 'FORBIDDEN')
        expect(res.body).not.toContain('<div id="app">')
      }
    }
  })

  it('refuses a request with no Host at all', async () => {
    const { port } = new URL(server.url)
    const answer = await new Promise<string>((done, fail) => {
      let text = ''
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('GET /console/ HTTP/1.0\r\n\r\n'))
      socket.setEncoding('latin1').on('data', (c) => (text += c)).on('end', () => done(text)).on('error', fail)
    })
    expect(answer).toMatch(/^HTTP\/1\.[01] 403/)
    expect(answer).not.toContain('<div id="app">')
  })

  it('serves loopback names on any port', async () => {
    const { port } = new URL(server.url)
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, '127.0.0.2']) {
      expect((await raw(server, 'GET', '/api/health', { host })).status, host).toBe(200)
      expect((await raw(server, 'GET', '/console/', { host })).status, host).toBe(200)
    }
  })

  it('serves a name listed in TANDEM_ALLOWED_HOSTS and still refuses the rest', async () => {
    const listed = await startServer({ env: { TANDEM_ALLOWED_HOSTS: 'tandem.lan, Other.Lan' } })
    try {
      for (const host of ['tandem.lan', 'other.lan:8080']) {
        expect((await raw(listed, 'GET', '/console/', { host })).status, host).toBe(200)
        expect((await raw(listed, 'GET', '/api/agent/tasks', { host, authorization: `Bearer ${listed.token}` })).status, host).toBe(200)
      }
      for (const host of ['evil.example', 'tandem.lan.evil.example']) {
        expect((await raw(listed, 'GET', '/console/', { host })).status, host).toBe(403)
      }
    } finally {
      await listed.close()
    }
  })
})

describe('paths that try to leave their folder', () => {
  const auth = () => ({ authorization: `Bearer ${server.token}` })
  const badIds = ['..', '.', '%2e%2e', '%2E%2E', '..%2f..%2fdata', '%2e%2e%2f%2e%2e%2fdata', '..%5c..%5cdata', '..\\..\\data', 'a%00b', '%00', '%252e%252e', 'tasks%2f..%2f..%2fdata', 'x'.repeat(129), 'x'.repeat(5000)]
  const badNames = [
    '..%2F..%2F..%2Fdata%2Ftoken',
    '%2e%2e%2f%2e%2e%2fsecret.png',
    '..%5C..%5C..%5Csecret.png',
    '..\\..\\..\\secret.png',
    '%2e%2e%5c%2e%2e%5csecret.png',
    '%252e%252e%252fsecret.png',
    `${artifact}%00.png`,
    `x.png%00`,
    '%00',
    'events.jsonl',
    '.%2e%2f.%2e%2fsecret.png',
    `${'a'.repeat(300)}.png`,
    `${'a'.repeat(5000)}.png`,
  ]

  it('refuses task ids that are not plain names on every task route', async () => {
    for (const id of badIds) {
      for (const path of [`/api/audit/${id}`, `/api/audit/${id}/export`, `/api/audit/${id}/artifacts/${artifact}`, `/api/agent/status?taskId=${id}`]) {
        expectRefused(await raw(server, 'GET', path, auth()), path)
      }
    }
  })

  it('refuses artifact names that are not generated names, and a symlink planted among them', async () => {
    for (const name of [...badNames, '0009-after-planted000.png']) {
      expectRefused(await raw(server, 'GET', `/api/audit/${taskId}/artifacts/${name}`, auth()), name)
    }
    // Literal dot segments reach no route rather than a file.
    for (const path of [`/api/audit/${taskId}/artifacts/../../../secret.png`, `/api/audit/${taskId}/artifacts/..`, `/api/audit/${taskId}/../../data/token`]) {
      expectRefused(await raw(server, 'GET', path, auth()), path)
    }
    const real = await raw(server, 'GET', `/api/audit/${taskId}/artifacts/${artifact}`, auth())
    expect(real.status).toBe(200)
    expect(real.headers['content-type']).toBe('image/png')
  })

  it('refuses skill slugs that leave the skills folder', async () => {
    for (const slug of ['..', '%2e%2e', '..%2f..%2fdata%2ftoken', '..%5ctoken', 'a%00', 'x'.repeat(200)]) {
      expectRefused(await raw(server, 'GET', `/api/skills/${slug}`, auth()), slug)
    }
  })
})

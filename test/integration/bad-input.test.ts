import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorEnvelope } from '#protocol'
import { agent } from '../support/agent'
import { startServer, type TestServer } from '../support/server'

// Small bounds, so a stalled connection is seen closed in seconds (the defaults are 15 s, 60 s and 5 s).
const HEADERS_MS = 2_000
const REQUEST_MS = 4_000
const KEEP_ALIVE_MS = 1_000
// A bound is checked every quarter of the headers bound at most: the slack a close may come after it.
const SLACK_MS = 1_500

let server: TestServer
let taskId: string
let actionId: string
beforeAll(async () => {
  server = await startServer({
    env: { TANDEM_HEADERS_TIMEOUT_MS: String(HEADERS_MS), TANDEM_REQUEST_TIMEOUT_MS: String(REQUEST_MS), TANDEM_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS) },
  })
  const a = agent(server)
  ;({ taskId } = await a.start({ script: [{ type: 'navigate', url: 'http://127.0.0.1:9/' }, { type: 'observe' }] }))
  ;({ actionId } = await a.nextAction(taskId))
})
afterAll(() => server.close())

type Route = { method: 'GET' | 'POST'; path: () => string; valid: () => Record<string, unknown>; wrongTypes: () => Record<string, unknown> }
const routes: Record<string, Route> = {
  start: { method: 'POST', path: () => '/api/agent/start', valid: () => ({ goal: 'g', script: [{ type: 'observe' }] }), wrongTypes: () => ({ goal: 42, script: 'observe' }) },
  next: { method: 'POST', path: () => '/api/agent/next', valid: () => ({ clientId: 'client_test_1', taskId, waitMs: 0 }), wrongTypes: () => ({ clientId: 1, waitMs: '20000' }) },
  report: {
    method: 'POST',
    path: () => '/api/agent/report',
    valid: () => ({ taskId, actionId: 'a_other', observation: { status: 'done', url: 'x', errors: [] } }),
    wrongTypes: () => ({ taskId, actionId, observation: { status: 'ok', url: 3, errors: 'none' } }),
  },
  confirm: { method: 'POST', path: () => '/api/agent/confirm', valid: () => ({ taskId, actionId, approved: true }), wrongTypes: () => ({ taskId, actionId, approved: 'yes' }) },
  answer: { method: 'POST', path: () => '/api/agent/answer', valid: () => ({ taskId, answer: 'x' }), wrongTypes: () => ({ taskId, answer: ['x'] }) },
  plan: {
    method: 'POST',
    path: () => '/api/agent/plan',
    valid: () => ({ taskId, approved: true }),
    wrongTypes: () => ({ taskId, approved: 'yes', plan: { steps: 'all of them', sites: [7], sends: [{ what: 'x', kind: 'gift' }] } }),
  },
  pause: { method: 'POST', path: () => '/api/agent/pause', valid: () => ({ taskId }), wrongTypes: () => ({ taskId: { $ne: 1 } }) },
  resume: { method: 'POST', path: () => '/api/agent/resume', valid: () => ({ taskId }), wrongTypes: () => ({ taskId: null }) },
  cancel: { method: 'POST', path: () => '/api/agent/cancel', valid: () => ({ taskId }), wrongTypes: () => ({ taskId: ['../../etc'] }) },
  status: { method: 'GET', path: () => `/api/agent/status?taskId=${taskId}`, valid: () => ({}), wrongTypes: () => ({}) },
  tasks: { method: 'GET', path: () => '/api/agent/tasks', valid: () => ({}), wrongTypes: () => ({}) },
  audit: { method: 'GET', path: () => `/api/audit/${taskId}`, valid: () => ({}), wrongTypes: () => ({}) },
  export: { method: 'GET', path: () => `/api/audit/${taskId}/export`, valid: () => ({}), wrongTypes: () => ({}) },
  allowed: { method: 'GET', path: () => '/api/writes/allowed', valid: () => ({}), wrongTypes: () => ({}) },
  forget: {
    method: 'POST',
    path: () => '/api/writes/forget',
    valid: () => ({ site: 'https://shop.test', method: 'POST', path: '/api/drafts/*/delete' }),
    wrongTypes: () => ({ site: 7, method: ['POST'], path: null }),
  },
}

async function snapshot() {
  const status = await server.api('GET', `/api/agent/status?taskId=${taskId}`)
  const tasks = await server.api('GET', '/api/agent/tasks')
  return { status: status.body, tasks: tasks.body }
}

function expectEnvelope(res: { status: number; body: unknown }, status: number, code: string) {
  expect(res.status).toBe(status)
  const envelope = ErrorEnvelope.parse(res.body)
  expect(envelope.error.code).toBe(code)
  expect(envelope.error.message.length).toBeGreaterThan(0)
}

describe.each(Object.entries(routes))('%s', (_name, route) => {
  it('refuses no token and a wrong token with 401, changing nothing', async () => {
    const before = await snapshot()
    const body = route.method === 'POST' ? route.valid() : undefined
    expectEnvelope(await server.api(route.method, route.path(), body, { token: null }), 401, 'UNAUTHORIZED')
    expectEnvelope(await server.api(route.method, route.path(), body, { token: 'wrong-token' }), 401, 'UNAUTHORIZED')
    expectEnvelope(await server.api(route.method, route.path(), body, { headers: { authorization: `Basic ${server.token}` }, token: null }), 401, 'UNAUTHORIZED')
    expect(await snapshot()).toEqual(before)
  })

  it('never answers a 5xx to junk', async () => {
    const junk = ['', '\u0000\u0001', '"string"', '{"__proto__":{"polluted":1}}', '{"taskId":"' + 'a'.repeat(5000) + '"}', '9'.repeat(400)]
    for (const raw of junk) {
      const res = await server.api(route.method === 'POST' ? 'POST' : 'GET', route.path(), undefined, route.method === 'POST' ? { raw } : {})
      expect(res.status, raw.slice(0, 20)).toBeLessThan(500)
      if (res.status >= 400) ErrorEnvelope.parse(res.body)
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe.each(Object.entries(routes).filter(([, r]) => r.method === 'POST'))('%s body', (_name, route) => {
  it('answers malformed JSON, wrong types, unknown fields and huge bodies with 4xx envelopes', async () => {
    const before = await snapshot()
    expectEnvelope(await server.api('POST', route.path(), undefined, { raw: '{"goal": "x",' }), 400, 'BAD_REQUEST')
    expectEnvelope(await server.api('POST', route.path(), undefined, { raw: 'null' }), 400, 'BAD_REQUEST')
    expectEnvelope(await server.api('POST', route.path(), undefined, { raw: '[1,2,3]' }), 400, 'BAD_REQUEST')
    expectEnvelope(await server.api('POST', route.path(), route.wrongTypes()), 400, 'BAD_REQUEST')
    expectEnvelope(await server.api('POST', route.path(), { ...route.valid(), surprise: true }), 400, 'BAD_REQUEST')
    const huge = JSON.stringify({ ...route.valid(), padding: 'x'.repeat(30 * 1024 * 1024) })
    expectEnvelope(await server.api('POST', route.path(), undefined, { raw: huge }), 413, 'PAYLOAD_TOO_LARGE')
    expect(await snapshot()).toEqual(before)
  })

})

describe('query and path validation', () => {
  it('refuses a bad taskId in queries and paths', async () => {
    expectEnvelope(await server.api('GET', '/api/agent/status'), 400, 'BAD_REQUEST')
    expectEnvelope(await server.api('GET', '/api/agent/status?taskId=../../x'), 400, 'BAD_REQUEST')
    expectEnvelope(await server.api('GET', '/api/agent/status?taskId=nope'), 404, 'NOT_FOUND')
    expectEnvelope(await server.api('GET', '/api/agent/tasks?limit=-1'), 400, 'BAD_REQUEST')
    expectEnvelope(await server.api('GET', '/api/agent/tasks?status=DONE'), 400, 'BAD_REQUEST')
  })

  it('refuses a wrong method with a 4xx envelope', async () => {
    const res = await server.api('GET', '/api/agent/start')
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    ErrorEnvelope.parse(res.body)
  })

  it('refuses a report whose screenshot is not an image', async () => {
    const before = await snapshot()
    const fake = Buffer.from('<svg onload=alert(1)>').toString('base64')
    const res = await server.api('POST', '/api/agent/report', {
      taskId,
      actionId,
      observation: { status: 'done', url: 'x', errors: [], artifacts: [{ label: 'after', contentType: 'image/png', data: fake }] },
    })
    expectEnvelope(res, 400, 'BAD_REQUEST')
    expect(await snapshot()).toEqual(before)
  })
})

/** Opens a socket to the server and sends `bytes` one at a time, `everyMs` apart, until the server closes it. */
function trickle(bytes: string, everyMs: number, first = ''): Promise<{ closedAfterMs: number; sent: number; reply: string }> {
  const { port } = new URL(server.url)
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(Number(port), '127.0.0.1')
    const started = Date.now()
    let sent = 0
    let reply = ''
    let timer: NodeJS.Timeout | undefined
    const next = () => {
      if (sent >= bytes.length || socket.destroyed) return
      socket.write(bytes[sent++])
      timer = setTimeout(next, everyMs)
    }
    socket.on('connect', () => {
      if (first) socket.write(first)
      next()
    })
    socket.on('data', (chunk) => (reply += chunk.toString()))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      resolve({ closedAfterMs: Date.now() - started, sent, reply })
    })
    setTimeout(() => {
      socket.destroy()
      reject(new Error(`the server kept a stalled connection open for 30 s (${sent} bytes sent)`))
    }, 30_000).unref()
  })
}

describe('slow connections', () => {
  it('closes a connection that sends its headers a byte a second, once the headers bound has passed', async () => {
    const headers = `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slowloris\r\nAccept: */*\r\n\r\n`
    const { closedAfterMs, sent, reply } = await trickle(headers, 1_000)
    expect(sent).toBeLessThan(headers.length)
    expect(closedAfterMs).toBeGreaterThanOrEqual(HEADERS_MS - 100)
    expect(closedAfterMs).toBeLessThan(HEADERS_MS + SLACK_MS)
    expect(reply).toMatch(/^HTTP\/1\.1 408/)
  }, 15_000)

  it('closes a connection whose body stalls, once the request bound has passed', async () => {
    const body = JSON.stringify({ goal: 'x'.repeat(80) })
    const head = `POST /api/agent/start HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`
    const { closedAfterMs, sent } = await trickle(body, 1_000, head)
    expect(sent).toBeLessThan(body.length)
    expect(closedAfterMs).toBeGreaterThanOrEqual(REQUEST_MS - 100)
    expect(closedAfterMs).toBeLessThan(REQUEST_MS + SLACK_MS)
  }, 15_000)

  it('closes a kept-alive connection left idle', async () => {
    const { closedAfterMs, reply } = await trickle('', 0, 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    expect(reply).toMatch(/^HTTP\/1\.1 200/)
    // Node keeps an idle socket a second past keepAliveTimeout, so a reply in flight is not cut.
    expect(closedAfterMs).toBeLessThan(KEEP_ALIVE_MS + 1_000 + SLACK_MS)
  }, 15_000)

  it('still answers a long-poll that waits longer than the request bound: the bound ends when the request is in', async () => {
    const started = Date.now()
    const res = await server.api('POST', '/api/agent/next', { clientId: 'client_idle_1', waitMs: REQUEST_MS + 1_000 })
    expect(res.status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_MS + 900)
  }, 15_000)
})

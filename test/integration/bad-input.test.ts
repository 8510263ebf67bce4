import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorEnvelope } from '#protocol'
import { agent } from '../support/agent'
import { startServer, type TestServer } from '../support/server'

let server: TestServer
let taskId: string
let actionId: string
beforeAll(async () => {
  server = await startServer()
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

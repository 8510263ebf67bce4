import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorEnvelope } from '#protocol'
import { startServer, type TestServer } from '../support/server'

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

describe('server basics', () => {
  it('answers health without a token', async () => {
    const res = await server.api('GET', '/api/health', undefined, { token: null })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true })
  })

  it('binds to loopback by default', () => {
    expect(server.log()).toMatch(/Listening on http:\/\/127\.0\.0\.1:\d+/)
  })

  it('generates and persists a token on first start, and prints it once', async () => {
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{40,}$/)
    expect(server.log()).toContain(server.token)
  })

  it.each([
    ['no token', null],
    ['a wrong token', 'nope'],
    ['a token one character off', 'x'],
  ])('refuses %s with a 401 envelope', async (_name, token) => {
    const res = await server.api('GET', '/api/agent/tasks', undefined, {
      token: token === 'x' ? server.token.slice(0, -1) + 'x' : token,
    })
    expect(res.status).toBe(401)
    expect(ErrorEnvelope.parse(res.body).error.code).toBe('UNAUTHORIZED')
  })

  it('answers unknown routes with a NOT_FOUND envelope', async () => {
    const res = await server.api('GET', '/api/nothing-here')
    expect(res.status).toBe(404)
    expect(ErrorEnvelope.parse(res.body).error.code).toBe('NOT_FOUND')
  })

  it('echoes a valid X-Trace-Id and makes one otherwise', async () => {
    const mine = await server.api('GET', '/api/health', undefined, { headers: { 'x-trace-id': 'trace-123' } })
    expect(mine.headers.get('x-trace-id')).toBe('trace-123')
    const made = await server.api('GET', '/api/nothing', undefined, { headers: { 'x-trace-id': 'bad id <script>' } })
    expect(made.headers.get('x-trace-id')).toMatch(/^[A-Za-z0-9_-]{12}$/)
  })

  it('refuses a Host that is not loopback (DNS rebinding)', async () => {
    // fetch will not send a foreign Host header; node:http will.
    const res = await new Promise<{ status: number; body: string }>((done, fail) => {
      const req = request(server.url + '/api/health', { headers: { host: 'evil.example' } }, (r) => {
        let body = ''
        r.on('data', (c) => (body += c)).on('end', () => done({ status: r.statusCode!, body }))
      })
      req.on('error', fail).end()
    })
    expect(res.status).toBe(403)
    expect(ErrorEnvelope.parse(JSON.parse(res.body)).error.code).toBe('FORBIDDEN')
  })

  it('refuses bodies over the limit, declared or streamed', async () => {
    const big = Buffer.alloc(400 * 1024, 'a')
    const declared = await server.api('POST', '/api/agent/start', undefined, { raw: big })
    expect(declared.status).toBe(413)
    expect(ErrorEnvelope.parse(declared.body).error.code).toBe('PAYLOAD_TOO_LARGE')
    const streamed = await fetch(server.url + '/api/agent/start', {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: new ReadableStream({
        start(c) {
          for (let i = 0; i < 8; i++) c.enqueue(new Uint8Array(64 * 1024))
          c.close()
        },
      }),
      duplex: 'half',
    } as RequestInit)
    expect(streamed.status).toBe(413)
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClientView } from '#protocol'
import { ok } from '../support/agent'
import { startServer, type TestServer } from '../support/server'

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const poll = (clientId: string, version: string, userAgent: string) =>
  ok(server.api('POST', '/api/agent/next', { clientId, waitMs: 0 }, { headers: { 'x-tandem-version': version, 'user-agent': userAgent } }))
const pause = () => new Promise((r) => setTimeout(r, 5))
const list = async () => (await ok<unknown[]>(server.api('GET', '/api/clients'))).map((c) => ClientView.parse(c))

describe('GET /api/clients', () => {
  it('lists the extensions that called in, the most recently seen first, with version and user agent', async () => {
    expect(await list()).toEqual([])
    await poll('client_a', '0.1.0', 'Chrome/130 A')
    await pause()
    await poll('client_b', '0.2.0', 'Chrome/131 B')
    const first = await list()
    expect(first.map((c) => c.clientId)).toEqual(['client_b', 'client_a'])
    expect(first[1]).toMatchObject({ clientId: 'client_a', version: '0.1.0', userAgent: 'Chrome/130 A' })
    expect(first[1].firstSeen <= first[1].lastSeen).toBe(true)

    await pause()
    await poll('client_a', '0.1.1', 'Chrome/130 A')
    const again = await list()
    expect(again.map((c) => c.clientId)).toEqual(['client_a', 'client_b'])
    expect(again[0]).toMatchObject({ version: '0.1.1', firstSeen: first[1].firstSeen })
    expect(again[0].lastSeen > first[1].lastSeen).toBe(true)
  })

  it('needs the token', async () => {
    expect((await server.api('GET', '/api/clients', undefined, { token: null })).status).toBe(401)
  })
})

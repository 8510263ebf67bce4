import { strFromU8, unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditEvent, VerifyResult } from '#protocol'
import { recordApprovedOrder } from '../support/approved-order'
import { startServer, type TestServer } from '../support/server'

// Page text that tries to end the inline script it is stored in.
const HOSTILE_TITLE = 'Cart </script><script>document.title="pwned"</script>'

let server: TestServer
let taskId: string
beforeAll(async () => {
  server = await startServer()
  taskId = await recordApprovedOrder(server, { goal: 'order the cart', title: HOSTILE_TITLE })
}, 60_000)
afterAll(() => server.close())

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers, redirect: 'manual' })

describe('the console', () => {
  it('serves its shell at /console/ without a token, with the script it loads, and never framed', async () => {
    for (const path of ['/console/', '/console']) {
      const res = await get(path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-type')).toContain('text/html')
      expect(res.headers.get('x-frame-options')).toBe('DENY')
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
      const html = await res.text()
      expect(html).toContain('<div id="app">')
      const script = /<script type="module"[^>]*src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1]
      expect(script, html).toBeDefined()
      const js = await get(script!)
      expect(js.status).toBe(200)
      expect(js.headers.get('content-type')).toContain('javascript')
      // The shell carries no data and no token: it asks for the token and sends it to /api.
      expect(await js.text()).toContain('Authorization'.toLowerCase())
      expect(html).not.toContain(server.token)
    }
  })

  it('leaves every /api route needing the token, even when asked through the console path', async () => {
    for (const path of ['/api/agent/tasks', `/api/audit/${taskId}`, `/api/audit/${taskId}/export`, '/api/skills/search?q=order', '/api/clients']) {
      for (const headers of [{}, { authorization: 'Bearer wrong-token' }] as Record<string, string>[]) {
        const res = await get(path, headers)
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(401)
        expect((await res.json()).error.code).toBe('UNAUTHORIZED')
      }
    }
    for (const path of ['/console/../api/agent/tasks', `/console/%2e%2e/api/audit/${taskId}`, `/console/..%2fapi/audit/${taskId}`]) {
      const res = await get(path)
      expect([401, 404], path).toContain(res.status)
      expect(await res.text()).not.toContain(taskId)
    }
    const res = await get('/api/agent/tasks', { authorization: `Bearer ${server.token}` })
    expect(res.status).toBe(200)
  })

  it('prints where the console is when the server starts', () => {
    expect(server.log()).toContain('[tandem] console:')
    expect(server.log()).toContain('/console/')
  })
})

describe('the export', () => {
  it('carries a self-contained replay.html with the events inline, its chain verified, and the screenshots beside it', async () => {
    const res = await get(`/api/audit/${taskId}/export`, { authorization: `Bearer ${server.token}` })
    expect(res.status).toBe(200)
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()))
    expect(Object.keys(files).slice(-2)).toEqual(['replay.html', 'manifest.json'])
    const html = strFromU8(files['replay.html']!)

    const block = (id: string) => JSON.parse(new RegExp(`<script type="application/json" id="${id}">([\\s\\S]*?)</script>`).exec(html)![1]!)
    const events: AuditEvent[] = block('tandem-events')
    const { events: served } = (await server.api('GET', `/api/audit/${taskId}`)).body.data
    expect(events).toEqual(served)
    expect(block('tandem-verified') as VerifyResult).toMatchObject({ ok: true, count: served.length })

    // Self-contained: no file is loaded from anywhere but the zip, the renderer is inline, the page text stayed data.
    expect(html).not.toMatch(/<script[^>]+src=/i)
    expect(html).not.toMatch(/<link[^>]+href=/i)
    expect(html).toContain("default-src 'none'")
    // The events, their check, the export's and the signer's blocks, and the renderer.
    expect(html.match(/<script/gi)).toHaveLength(5)
    const manifest = JSON.parse(strFromU8(files['manifest.json']!))
    expect(block('tandem-signer')).toMatchObject({ key: manifest.signature.key })
    expect(html.length).toBeGreaterThan(20_000)
    expect(html).not.toContain(HOSTILE_TITLE)
    expect(events.some((e) => e.data.title === HOSTILE_TITLE)).toBe(true)

    const referenced = events.flatMap((e) => ((e.data.artifacts as { name: string }[] | undefined) ?? []).map((a) => a.name))
    expect(referenced).toHaveLength(4)
    for (const name of referenced) expect(files[`artifacts/${name}`], name).toBeDefined()
  })
})

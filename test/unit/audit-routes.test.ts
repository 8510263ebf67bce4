import { readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { unzipSync } from 'fflate'
import { createApp, createRouter, send, setResponseHeader, setResponseStatus, toNodeListener } from 'h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AuditManifest, AuditView, ErrorEnvelope, type ArtifactRef } from '#protocol'
import { toErrorEnvelope } from '../../server/lib/http/envelope'
import { REAL, tempDir } from './audit-fixtures'

// The routes read TANDEM_AUDIT_DIR through useConfig() on first use, so it is set before they are imported.
const { dir, cleanup } = tempDir()
process.env.TANDEM_AUDIT_DIR = dir

let server: Server
let base: string
let refs: ArtifactRef[]

beforeAll(async () => {
  const [{ default: index }, { default: exportRoute }, { default: artifact }, { useAuditLog, useArtifactStore }, { decodeArtifacts }] = await Promise.all([
    import('../../server/api/audit/[taskId]/index.get'),
    import('../../server/api/audit/[taskId]/export.get'),
    import('../../server/api/audit/[taskId]/artifacts/[name].get'),
    import('../../server/lib/app/use-audit'),
    import('../../server/lib/audit/artifacts'),
  ])
  // Nitro mounts api/audit/[taskId]/… as these paths; the error handler is the server's own envelope.
  const app = createApp({
    onError: (error, event) => {
      const { status, body } = toErrorEnvelope(error)
      setResponseStatus(event, status)
      setResponseHeader(event, 'content-type', 'application/json')
      return send(event, JSON.stringify(body))
    },
  })
  app.use(
    createRouter()
      .get('/api/audit/:taskId', index)
      .get('/api/audit/:taskId/export', exportRoute)
      .get('/api/audit/:taskId/artifacts/:name', artifact),
  )
  server = createServer(toNodeListener(app)).listen(0, '127.0.0.1')
  await new Promise((r) => server.once('listening', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const log = useAuditLog()
  await log.append('task-9', { type: 'task.started', data: { goal: 'send the form' } })
  refs = await useArtifactStore().write(
    'task-9',
    decodeArtifacts(
      [
        { label: 'before', contentType: 'image/png', data: REAL.png },
        { label: 'after', contentType: 'image/webp', data: REAL.webp },
      ],
      1 << 20,
    ),
    '0001',
  )
  await log.append('task-9', { type: 'observation', actionId: 'a1', data: { artifacts: refs } })
})
afterAll(async () => {
  await new Promise((r) => server.close(r))
  cleanup()
})

const get = (path: string) => fetch(base + path)
async function errorCode(res: Response) {
  return ErrorEnvelope.parse(await res.json()).error.code
}

describe('GET /api/audit/:taskId', () => {
  it('returns the events and the verdict on their chain', async () => {
    const res = await get('/api/audit/task-9')
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.ok).toBe(true)
    const view = AuditView.parse(body.data)
    expect(view.events.map((e) => e.type)).toEqual(['task.started', 'observation'])
    expect(view.verified).toEqual({ ok: true, count: 2, head: { seq: 2, hash: view.events[1]!.hash } })
  })

  it('answers NOT_FOUND for a task with no log, BAD_REQUEST for an id that is not one', async () => {
    const missing = await get('/api/audit/nobody')
    expect(missing.status).toBe(404)
    expect(await errorCode(missing)).toBe('NOT_FOUND')
    const bad = await get('/api/audit/a.b')
    expect(bad.status).toBe(400)
    expect(await errorCode(bad)).toBe('BAD_REQUEST')
  })

  it('reports tampering in the verdict, naming the line', async () => {
    const { useAuditLog } = await import('../../server/lib/app/use-audit')
    await useAuditLog().append('tampered', { type: 'a', data: { amount: 10 } })
    await useAuditLog().append('tampered', { type: 'b' })
    const file = join(dir, 'tampered', 'events.jsonl')
    writeFileSync(file, readFileSync(file, 'utf8').replace('"amount":10', '"amount":99'))
    const view = AuditView.parse((await (await get('/api/audit/tampered')).json()).data)
    expect(view.verified.ok).toBe(false)
    expect(view.verified.problem).toEqual({ line: 1, reason: expect.stringMatching(/hash does not match/) })
    expect(view.events[0]!.data).toEqual({ amount: 99 })
  })
})

describe('GET /api/audit/:taskId/export', () => {
  it('streams the zip as an attachment', async () => {
    const res = await get('/api/audit/task-9/export')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/zip')
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="tandem-audit-task-9.zip"')
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()))
    const manifest = AuditManifest.parse(JSON.parse(Buffer.from(files['manifest.json']!).toString()))
    expect(manifest).toMatchObject({ taskId: 'task-9', events: 2 })
    expect(manifest.artifacts.map((a) => a.name).sort()).toEqual(refs.map((r) => r.name).sort())
  })

  it('answers NOT_FOUND for an unknown task', async () => {
    const res = await get('/api/audit/nobody/export')
    expect(res.status).toBe(404)
    expect(await errorCode(res)).toBe('NOT_FOUND')
  })
})

describe('GET /api/audit/:taskId/artifacts/:name', () => {
  it('serves the image with its type and nosniff', async () => {
    for (const ref of refs) {
      const res = await get(`/api/audit/task-9/artifacts/${ref.name}`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe(ref.contentType)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(dir, 'task-9', 'artifacts', ref.name)))).toBe(true)
    }
  })

  it('answers NOT_FOUND for a name that is not there', async () => {
    const res = await get('/api/audit/task-9/artifacts/0001-before-zzzzzzzzzz.png')
    expect(res.status).toBe(404)
    expect(await errorCode(res)).toBe('NOT_FOUND')
  })

  it.each(['..%2Fevents.jsonl', '%2e%2e%2f%2e%2e%2fx.png', 'events.jsonl', 'x.png%00', '..%5C..%5Cx.png', '.hidden.png'])(
    'refuses %s as a name the server never makes',
    async (name) => {
      const res = await get(`/api/audit/task-9/artifacts/${name}`)
      expect(res.status).toBe(400)
      expect(await errorCode(res)).toBe('BAD_REQUEST')
    },
  )
})

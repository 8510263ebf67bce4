import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { unzipSync, strFromU8 } from 'fflate'
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AuditManifest } from '#protocol'
import { verifyChain } from '../../server/lib/audit/chain'
import { PNG } from '../support/agent'
import { recordApprovedOrder } from '../support/approved-order'
import { startServer, type TestServer } from '../support/server'

let server: TestServer
let taskId: string
beforeAll(async () => {
  server = await startServer()
  taskId = await recordApprovedOrder(server)
}, 60_000)
afterAll(() => server.close())

async function exportZip() {
  const res = await fetch(`${server.url}/api/audit/${taskId}/export`, { headers: { authorization: `Bearer ${server.token}` } })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('application/zip')
  return unzipSync(new Uint8Array(await res.arrayBuffer()))
}

describe('the audit of a task', () => {
  it('records every step, the confirmation and who gave it, in a verified chain', async () => {
    const res = await server.api('GET', `/api/audit/${taskId}`)
    expect(res.status).toBe(200)
    const { events, verified } = res.body.data
    expect(verified.ok).toBe(true)
    const types = events.map((e: { type: string }) => e.type)
    for (const t of ['task.created', 'action.proposed', 'action.dispatched', 'observation', 'confirmation.requested', 'confirmation.answered', 'task.finished']) {
      expect(types).toContain(t)
    }
    const answered = events.find((e: { type: string }) => e.type === 'confirmation.answered')
    expect(answered.data).toMatchObject({ approved: true, reason: 'looks right', by: expect.any(String), at: expect.any(String) })
    const observed = events.filter((e: { type: string }) => e.type === 'observation')
    expect(observed.at(-1).data.artifacts.map((x: { label: string }) => x.label)).toEqual(['before', 'after'])
  })

  it('serves an artifact as the image it is, and refuses names that leave the folder', async () => {
    const events = (await server.api('GET', `/api/audit/${taskId}`)).body.data.events
    const name = events.filter((e: { type: string }) => e.type === 'observation').at(-1).data.artifacts[0].name
    const res = await fetch(`${server.url}/api/audit/${taskId}/artifacts/${name}`, { headers: { authorization: `Bearer ${server.token}` } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(Buffer.from(await res.arrayBuffer()).toString('base64')).toBe(PNG)
    for (const bad of ['..%2F..%2Fevents.jsonl', '%2e%2e%2fevents.jsonl', 'events.jsonl', 'x.png%00.png', '....%2F%2Ftoken']) {
      const r = await server.api('GET', `/api/audit/${taskId}/artifacts/${bad}`)
      expect(r.status, bad).toBeGreaterThanOrEqual(400)
      expect(r.status, bad).toBeLessThan(500)
      expect(r.body.ok).toBe(false)
    }
  })

  it('exports a zip whose events, manifest and artifacts verify', async () => {
    const files = await exportZip()
    const events = strFromU8(files['events.jsonl'])
    const verdict = verifyChain(events)
    expect(verdict.ok).toBe(true)
    const manifest = AuditManifest.parse(JSON.parse(strFromU8(files['manifest.json'])))
    expect(manifest.head).toEqual(verdict.head)
    expect(manifest.artifacts).toHaveLength(3)
    for (const artifact of manifest.artifacts) {
      const bytes = files[`artifacts/${artifact.name}`]
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(artifact.sha256)
    }
  })

  it('the verify command passes the export and names the line of a tampered one', async () => {
    const files = await exportZip()
    const dir = mkdtempSync(join(tmpdir(), 'tandem-verify-'))
    const lines = strFromU8(files['events.jsonl']).trimEnd().split('\n')
    writeFileSync(join(dir, 'good.jsonl'), lines.join('\n') + '\n')
    const edited = lines.map((l, i) => (i === 2 ? l.replace('"seq":3', '"seq":3,"x":1') : l))
    writeFileSync(join(dir, 'edited.jsonl'), edited.join('\n') + '\n')
    const dropped = lines.filter((_, i) => i !== 4)
    writeFileSync(join(dir, 'dropped.jsonl'), dropped.join('\n') + '\n')
    const run = (file: string) => spawnSync('npx', ['tsx', 'scripts/audit-verify.ts', join(dir, file)], { encoding: 'utf8' })
    expect(run('good.jsonl').status).toBe(0)
    const e = run('edited.jsonl')
    expect(e.status).toBe(1)
    expect(e.stdout + e.stderr).toMatch(/line 3/)
    const d = run('dropped.jsonl')
    expect(d.status).toBe(1)
    expect(d.stdout + d.stderr).toMatch(/line 5/)
  })
})

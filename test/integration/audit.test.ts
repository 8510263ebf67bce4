import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
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

/**
 * Runs `npm run audit:verify -- <args>` without blocking this process: a blocked event loop would miss the server
 * closing an idle keep-alive socket, and the next request would go out on it and fail.
 */
function verify(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((done) =>
    execFile('npx', ['tsx', 'scripts/audit-verify.ts', ...args], { encoding: 'utf8' }, (error, stdout, stderr) =>
      done({ status: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  )
}

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
    expect(manifest.artifacts).toHaveLength(4)
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
    const run = (file: string) => verify(join(dir, file))
    expect((await run('good.jsonl')).status).toBe(0)
    const e = await run('edited.jsonl')
    expect(e.status).toBe(1)
    expect(e.stdout + e.stderr).toMatch(/line 3/)
    const d = await run('dropped.jsonl')
    expect(d.status).toBe(1)
    expect(d.stdout + d.stderr).toMatch(/line 5/)
  })
})

describe('the audit signature', () => {
  const printedKey = () => {
    const printed = [...server.log().matchAll(/\[tandem\] audit signing key: (ed25519:[0-9a-f]{32})/g)]
    expect(printed).toHaveLength(1)
    return printed[0]![1]!
  }

  it('is made with an owner-only private key, printed once at start, and answered at GET /api/audit/key', async () => {
    const fingerprint = printedKey()
    const res = await server.api('GET', '/api/audit/key')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true, data: { algorithm: 'ed25519', fingerprint, publicKey: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/) } })
    expect(statSync(join(server.dataDir, 'audit-signing-key.pem')).mode & 0o777).toBe(0o600)
    expect((await server.api('GET', '/api/audit/key', undefined, { token: null })).status).toBe(401)
  })

  it("signs a finished task's head beside its events, and the verify command checks both against the server's key", async () => {
    const fingerprint = printedKey()
    const { events } = (await server.api('GET', `/api/audit/${taskId}`)).body.data
    const signature = JSON.parse(readFileSync(join(server.auditDir, taskId, 'signature.json'), 'utf8'))
    expect(signature).toMatchObject({ taskId, key: fingerprint, seq: events.at(-1).seq, hash: events.at(-1).hash })

    const res = await fetch(`${server.url}/api/audit/${taskId}/export`, { headers: { authorization: `Bearer ${server.token}` } })
    const dir = mkdtempSync(join(tmpdir(), 'tandem-signed-'))
    const zip = join(dir, 'export.zip')
    writeFileSync(zip, Buffer.from(await res.arrayBuffer()))
    const asked = await verify(zip, '--server', server.url, '--token', server.token)
    expect(asked.stdout.trim()).toMatch(new RegExp(`^OK export\\.zip: .*; signed by ${fingerprint}, the key from the server at ${server.url}$`))
    expect(asked.status).toBe(0)
    const folder = await verify(join(server.auditDir, taskId), '--key', fingerprint)
    expect(folder.stdout.trim()).toMatch(new RegExp(`; signed by ${fingerprint}, the key from --key$`))
    expect(folder.status).toBe(0)
    const refused = await verify(zip, '--server', server.url, '--token', 'wrong')
    expect(refused.status).toBe(2)
    expect(refused.stderr).toContain('refused the token')
  })
})

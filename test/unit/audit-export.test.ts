import { createHash } from 'node:crypto'
import { copyFileSync, createWriteStream, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { unzipSync } from 'fflate'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AuditManifest, type ArtifactRef } from '#protocol'
import { createArtifactStore, decodeArtifacts } from '../../server/lib/audit/artifacts'
import { verifyChain } from '../../server/lib/audit/chain'
import { exportAuditZip, type ExportExtra } from '../../server/lib/audit/export'
import { createAuditLog } from '../../server/lib/audit/log'
import { checkSignature, manifestSignedText } from '../../server/lib/audit/signature'
import { loadOrCreateAuditKey } from '../../server/lib/audit/signing-key'
import { verifyAuditPath } from '../../server/lib/audit/verify-export'
import { makePng, REAL, tempDir } from './audit-fixtures'

let dir: string
let cleanup: () => void
beforeEach(() => ({ dir, cleanup } = tempDir()))
afterEach(() => cleanup())

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

async function collect(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = []
  for await (const chunk of stream) parts.push(chunk)
  return Buffer.concat(parts)
}

async function makeTask(taskId = 'task-1') {
  const log = createAuditLog({ dir, fsync: false })
  const artifacts = createArtifactStore({ dir, fsync: false })
  await log.append(taskId, { type: 'task.started', data: { goal: 'check out' } })
  const refs = await artifacts.write(
    taskId,
    decodeArtifacts(
      [
        { label: 'before', contentType: 'image/png', data: REAL.png },
        { label: 'after', contentType: 'image/jpeg', data: REAL.jpeg },
      ],
      1024 * 1024,
    ),
    '0001',
  )
  await log.append(taskId, { type: 'observation', actionId: 'a1', data: { url: 'https://shop.example', artifacts: refs } })
  await log.append(taskId, { type: 'task.finished', data: { status: 'SUCCEEDED' } })
  return { log, artifacts, refs }
}

describe('exportAuditZip', () => {
  it('streams a zip with events.jsonl, artifacts/* and a manifest that all check out', async () => {
    const { log, artifacts, refs } = await makeTask()
    const signer = loadOrCreateAuditKey(join(dir, 'key'))
    const zip = await collect(await exportAuditZip({ log, artifacts }, 'task-1', { signer, now: () => new Date('2025-02-03T04:05:06.000Z') }))
    const files = unzipSync(zip)
    expect(Object.keys(files)).toEqual(['events.jsonl', ...refs.map((r) => `artifacts/${r.name}`).sort(), 'manifest.json'])

    const events = Buffer.from(files['events.jsonl']!).toString('utf8')
    expect(events).toBe(await log.readRaw('task-1'))
    const chain = verifyChain(events)
    expect(chain).toMatchObject({ ok: true, count: 3 })

    const raw = JSON.parse(Buffer.from(files['manifest.json']!).toString('utf8'))
    const manifest = AuditManifest.parse(raw)
    const listed = refs.map((r) => ({ name: r.name, bytes: r.bytes, sha256: r.sha256 })).sort((a, b) => a.name.localeCompare(b.name))
    expect(manifest).toEqual({
      taskId: 'task-1',
      exportedAt: '2025-02-03T04:05:06.000Z',
      events: 3,
      head: chain.head,
      artifacts: listed,
      files: [
        { name: 'events.jsonl', bytes: Buffer.byteLength(events), sha256: sha256(Buffer.from(events)) },
        ...listed.map((a) => ({ ...a, name: `artifacts/${a.name}` })),
      ],
      signature: { algorithm: 'ed25519', key: signer.key, publicKey: signer.publicKey, signature: expect.any(String) },
    })
    expect(checkSignature(manifest.signature!, manifestSignedText(raw), manifest.signature!.signature)).toBeNull()
    expect(checkSignature(manifest.signature!, manifestSignedText({ ...raw, events: 2 }), manifest.signature!.signature)).toBe('signature')
    for (const ref of refs) {
      const bytes = files[`artifacts/${ref.name}`]!
      expect(sha256(bytes)).toBe(ref.sha256)
      expect(Buffer.from(bytes).equals(readFileSync(join(dir, 'task-1', 'artifacts', ref.name)))).toBe(true)
    }
  })

  it('exports a consistent snapshot while the task keeps logging', async () => {
    const { log, artifacts } = await makeTask()
    const stream = await exportAuditZip({ log, artifacts }, 'task-1')
    await Promise.all(Array.from({ length: 20 }, (_, i) => log.append('task-1', { type: 'late', data: { i } })))
    const files = unzipSync(await collect(stream))
    const manifest = AuditManifest.parse(JSON.parse(Buffer.from(files['manifest.json']!).toString('utf8')))
    const chain = verifyChain(Buffer.from(files['events.jsonl']!).toString('utf8'))
    expect(chain).toMatchObject({ ok: true, count: 3 })
    expect(manifest.head).toEqual(chain.head)
    expect(manifest.events).toBe(3)
  })

  it('gives extras (the replay page hook) the events and artifacts, and puts them before the manifest', async () => {
    const { log, artifacts, refs } = await makeTask()
    const seen: { types: string[]; artifacts: string[]; firstBytes: number } = { types: [], artifacts: [], firstBytes: 0 }
    const replay: ExportExtra = {
      name: 'replay.html',
      async content(context) {
        for await (const event of context.events()) seen.types.push(event.type)
        seen.artifacts = context.artifacts.map((a) => a.name)
        seen.firstBytes = (await collect(context.readArtifact(context.artifacts[0]!.name))).length
        return `<!doctype html><title>${context.taskId}</title>`
      },
    }
    const files = unzipSync(await collect(await exportAuditZip({ log, artifacts }, 'task-1', { extras: [replay] })))
    expect(Object.keys(files).slice(-2)).toEqual(['replay.html', 'manifest.json'])
    expect(Buffer.from(files['replay.html']!).toString()).toBe('<!doctype html><title>task-1</title>')
    const manifest = AuditManifest.parse(JSON.parse(Buffer.from(files['manifest.json']!).toString('utf8')))
    expect(manifest.files!.at(-1)).toEqual({ name: 'replay.html', bytes: files['replay.html']!.length, sha256: sha256(files['replay.html']!) })
    expect(seen.types).toEqual(['task.started', 'observation', 'task.finished'])
    expect(seen.artifacts).toEqual(refs.map((r) => r.name).sort())
    expect(seen.firstBytes).toBeGreaterThan(0)
  })

  it('exports a task with no artifacts', async () => {
    const log = createAuditLog({ dir, fsync: false })
    await log.append('bare', { type: 'task.started' })
    const files = unzipSync(await collect(await exportAuditZip({ log, artifacts: createArtifactStore({ dir }) }, 'bare')))
    expect(Object.keys(files)).toEqual(['events.jsonl', 'manifest.json'])
  })

  it('can be abandoned part way without error', async () => {
    const { log, artifacts } = await makeTask()
    const stream = await exportAuditZip({ log, artifacts }, 'task-1')
    for await (const _ of stream) break
    expect(stream.destroyed).toBe(true)
  })

  it('keeps memory flat exporting 200 large artifacts (≈100 MB), and the result verifies', async () => {
    const taskId = 'big'
    const log = createAuditLog({ dir, fsync: false })
    const folder = join(dir, taskId, 'artifacts')
    mkdirSync(folder, { recursive: true })
    const png = makePng(512, 341, (i) => (Math.imul(i, 2654435761) >>> 13) & 0xff) // ≈512 KiB, incompressible
    const template = join(dir, 'template.png')
    writeFileSync(template, png)
    const refs: ArtifactRef[] = []
    for (let i = 0; i < 200; i++) {
      const name = `${String(i).padStart(4, '0')}-after-${String(i).padStart(10, '0')}.png`
      copyFileSync(template, join(folder, name))
      refs.push({ name, label: 'after', contentType: 'image/png', bytes: png.length, sha256: sha256(png) })
    }
    await log.appendMany(taskId, refs.map((ref, i) => ({ type: 'observation', actionId: `a${i}`, data: { artifacts: [ref] } })))

    const used = () => {
      const m = process.memoryUsage()
      return m.heapUsed + m.arrayBuffers
    }
    const baseline = used()
    let peak = 0
    let total = 0
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        total += chunk.length
        peak = Math.max(peak, used() - baseline)
        setImmediate(() => done(null, chunk)) // a consumer slower than the disk: the export must wait for it
      },
    })
    const out = join(dir, 'big.zip')
    const signer = loadOrCreateAuditKey(join(dir, 'key'))
    await pipeline(await exportAuditZip({ log, artifacts: createArtifactStore({ dir }) }, taskId, { signer }), meter, createWriteStream(out))

    if (process.env.AUDIT_DEBUG) console.log(`peak ${(peak / 1048576).toFixed(1)} MiB over ${(total / 1048576).toFixed(0)} MiB`)
    expect(total).toBeGreaterThan(100 * 1024 * 1024)
    expect(statSync(out).size).toBe(total)
    expect(peak).toBeLessThan(48 * 1024 * 1024)
    const check = await verifyAuditPath(out)
    expect(check).toMatchObject({ ok: true, artifacts: 200 })
  }, 120_000)
})

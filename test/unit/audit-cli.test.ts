import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { unzipSync, zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GENESIS_HASH, type AuditEvent } from '#protocol'
import { createArtifactStore, decodeArtifacts } from '../../server/lib/audit/artifacts'
import { sealEvent } from '../../server/lib/audit/chain'
import { exportAuditZip } from '../../server/lib/audit/export'
import { signingFinishedTasks } from '../../server/lib/audit/head-signature'
import { createAuditLog } from '../../server/lib/audit/log'
import { createReplayExtra } from '../../server/lib/audit/replay-html'
import { signManifest } from '../../server/lib/audit/signature'
import { loadOrCreateAuditKey, type AuditKey } from '../../server/lib/audit/signing-key'
import { REAL, tempDir } from './audit-fixtures'

let dir: string
let cleanup: () => void
let taskDir: string
let zipPath: string
let artifactName: string
let key: AuditKey

const UNKNOWN_KEY = /; signed by ed25519:[0-9a-f]{32}, a key not checked against a known one, so who signed is unknown \(pass --key <fingerprint> or --server <url>\)$/
const REPLAY = createReplayExtra(async () => ({ script: 'document.title = "replay"', style: 'body{}' }))

/** Runs the CLI exactly as `npm run audit:verify -- <path>` does. */
function runCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, ['--import', 'tsx', resolve('scripts/audit-verify.ts'), ...args], { cwd: resolve('.') }, (error, stdout, stderr) =>
      done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}

/** A copy of the exported zip with some entries changed, written the ordinary way. */
function rezip(name: string, change: (files: Record<string, Uint8Array>) => void): string {
  const files = unzipSync(readFileSync(zipPath))
  change(files)
  const path = join(dir, name)
  writeFileSync(path, zipSync(files))
  return path
}

beforeAll(async () => {
  ;({ dir, cleanup } = tempDir())
  const audit = join(dir, 'audit')
  key = loadOrCreateAuditKey(join(dir, 'data'))
  const log = signingFinishedTasks(createAuditLog({ dir: audit, fsync: false }), { signer: () => key, fsync: false })
  const artifacts = createArtifactStore({ dir: audit, fsync: false })
  await log.append('cli-task', { type: 'task.created', data: { goal: 'pay the bill', mode: 'script', source: {} } })
  const refs = await artifacts.write('cli-task', decodeArtifacts([{ label: 'before', contentType: 'image/png', data: REAL.png }], 1 << 20), '0001')
  artifactName = refs[0]!.name
  const observed = { status: 'done', url: 'https://bank.test/', title: 'Bank', errors: [], timing: {}, elementCount: 0, treeChars: 0 }
  await log.append('cli-task', { type: 'observation', actionId: 'a1', data: { ...observed, artifacts: refs } })
  const answered = { approved: false, reason: 'wrong amount', by: 'api', at: '2025-11-02T10:00:00.000Z', source: {} }
  await log.append('cli-task', { type: 'confirmation.answered', actionId: 'a2', data: answered })
  await log.append('cli-task', { type: 'task.finished', data: { status: 'SUCCEEDED' } })
  taskDir = join(audit, 'cli-task')
  zipPath = join(dir, 'export.zip')
  await pipeline(await exportAuditZip({ log, artifacts }, 'cli-task', { extras: [REPLAY], signer: key }), createWriteStream(zipPath))
})
afterAll(() => cleanup())

describe('npm run audit:verify', () => {
  it.each([
    ['a task folder', () => taskDir, /^OK cli-task: task cli-task, 4 events, head #4 [0-9a-f]{12}, 1 artifacts match; signed by /],
    ['an events.jsonl', () => join(taskDir, 'events.jsonl'), /^OK events\.jsonl: task cli-task, 4 events/],
    ['an exported zip', () => zipPath, /^OK export\.zip: .*head matches the manifest, 3 files and 1 artifacts match; signed by /],
  ])('passes %s', async (_name, path, verdict) => {
    const { code, stdout } = await runCli(path())
    expect(stdout.trim()).toMatch(verdict)
    expect(code).toBe(0)
  })

  it('passes events it cannot read, and says which: the chain proves them whole, this version cannot show them', async () => {
    const audit = join(dir, 'newer')
    const log = createAuditLog({ dir: audit, fsync: false })
    await log.append('newer-task', { type: 'task.created', data: { goal: 'pay', mode: 'script', source: {} } })
    await log.append('newer-task', { type: 'some.future.event', data: { anything: 1 } })
    await log.append('newer-task', { type: 'task.finished', data: { status: 'nonsense' } })
    const { code, stdout } = await runCli(join(audit, 'newer-task'))
    expect(stdout.trim()).toMatch(
      /^OK newer-task: task newer-task, 3 events, .*0 artifacts match; 2 events this version cannot read \(some\.future\.event, task\.finished\); not signed \(no signature\.json/,
    )
    expect(code).toBe(0)
  })

  it('fails an edited events.jsonl, naming the line', async () => {
    const copy = join(dir, 'edited')
    cpSync(taskDir, copy, { recursive: true })
    const events = join(copy, 'events.jsonl')
    writeFileSync(events, readFileSync(events, 'utf8').replace('pay the bill', 'pay the bull'))
    const { code, stdout } = await runCli(events)
    expect(stdout.trim()).toBe('FAIL events.jsonl: line 1: hash does not match the content (the line was edited)')
    expect(code).toBe(1)
  })

  it('fails a folder whose screenshot was swapped', async () => {
    const copy = join(dir, 'cli-task')
    cpSync(taskDir, copy, { recursive: true })
    writeFileSync(join(copy, 'artifacts', artifactName), Buffer.from(REAL.png, 'base64').reverse())
    const { code, stdout } = await runCli(copy)
    expect(stdout).toContain(`artifacts/${artifactName} does not match the sha256 event 2 recorded`)
    expect(code).toBe(1)
  })

  it('fails a zip whose events lost their last line (the manifest head catches it)', async () => {
    const path = rezip('cut.zip', (files) => {
      const text = Buffer.from(files['events.jsonl']!).toString('utf8')
      files['events.jsonl'] = Buffer.from(text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1))
    })
    const { code, stdout } = await runCli(path)
    expect(stdout).toMatch(/^FAIL cut\.zip: events\.jsonl has 3 events, the manifest says 4/)
    expect(code).toBe(1)
  })

  it('fails a zip whose artifact was changed', async () => {
    const path = rezip('swapped.zip', (files) => {
      files[`artifacts/${artifactName}`] = Buffer.from(REAL.jpeg, 'base64')
    })
    const { code, stdout } = await runCli(path)
    expect(stdout).toContain(`artifacts/${artifactName} does not match the manifest's sha256`)
    expect(code).toBe(1)
  })

  it('fails a zip whose artifact and manifest were both changed (the chain still remembers the hash)', async () => {
    const path = rezip('forged.zip', (files) => {
      const fake = Buffer.from(REAL.jpeg, 'base64')
      files[`artifacts/${artifactName}`] = fake
      const manifest = JSON.parse(Buffer.from(files['manifest.json']!).toString('utf8'))
      for (const listed of [manifest.artifacts[0], manifest.files.find((f: { name: string }) => f.name === `artifacts/${artifactName}`)]) {
        listed.sha256 = createHash('sha256').update(fake).digest('hex')
        listed.bytes = fake.length
      }
      files['manifest.json'] = Buffer.from(JSON.stringify(manifest))
    })
    const { code, stdout } = await runCli(path)
    expect(stdout).toContain(`does not match the sha256 event 2 recorded`)
    expect(code).toBe(1)
  })

  it('fails a zip with an edited event, naming the line', async () => {
    const path = rezip('edited.zip', (files) => {
      files['events.jsonl'] = Buffer.from(Buffer.from(files['events.jsonl']!).toString('utf8').replace('SUCCEEDED', 'FAILED'))
    })
    const { code, stdout } = await runCli(path)
    expect(stdout.trim()).toMatch(/^FAIL edited\.zip: events\.jsonl line 4: hash does not match/)
    expect(code).toBe(1)
  })

  it('fails a truncated zip', async () => {
    const path = join(dir, 'truncated.zip')
    const bytes = readFileSync(zipPath)
    writeFileSync(path, bytes.subarray(0, bytes.length - 30))
    const { code, stdout } = await runCli(path)
    expect(stdout).toMatch(/^FAIL truncated\.zip: /)
    expect(code).toBe(1)
  })

  /** The export unzipped by hand into a folder the person chose the name of. */
  function unzipInto(name: string): string {
    const folder = join(dir, name)
    for (const [entry, bytes] of Object.entries(unzipSync(readFileSync(zipPath)))) {
      mkdirSync(dirname(join(folder, entry)), { recursive: true })
      writeFileSync(join(folder, entry), bytes)
    }
    return folder
  }

  it('passes an unzipped export whatever its folder is called: the task comes from the files', async () => {
    const { code, stdout } = await runCli(unzipInto('my-download'))
    expect(stdout.trim()).toMatch(/^OK my-download: task cli-task, 4 events, head #4 [0-9a-f]{12}, head matches the manifest, 3 files and 1 artifacts match; signed by /)
    expect(code).toBe(0)
  })

  it('passes a task folder copied under another name', async () => {
    const copy = join(dir, 'renamed-task')
    cpSync(taskDir, copy, { recursive: true })
    const { code, stdout } = await runCli(copy)
    expect(stdout.trim()).toMatch(/^OK renamed-task: task cli-task, 4 events/)
    expect(code).toBe(0)
  })

  it('fails an unzipped export whose files were really changed', async () => {
    const swapped = unzipInto('unzipped-swapped')
    writeFileSync(join(swapped, 'artifacts', artifactName), Buffer.from(REAL.jpeg, 'base64'))
    const a = await runCli(swapped)
    expect(a.stdout).toContain(`artifacts/${artifactName} does not match the manifest's sha256`)
    expect(a.code).toBe(1)

    const cut = unzipInto('unzipped-cut')
    const events = join(cut, 'events.jsonl')
    const text = readFileSync(events, 'utf8')
    writeFileSync(events, text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1))
    const b = await runCli(cut)
    expect(b.stdout).toMatch(/^FAIL unzipped-cut: events\.jsonl has 3 events, the manifest says 4/)
    expect(b.code).toBe(1)

    const other = unzipInto('unzipped-other-task')
    const manifestPath = join(other, 'manifest.json')
    writeFileSync(manifestPath, readFileSync(manifestPath, 'utf8').replace('"cli-task"', '"another-task"'))
    const c = await runCli(other)
    expect(c.stdout).toContain('manifest is for task another-task, the events for cli-task')
    expect(c.code).toBe(1)

    const extra = unzipInto('unzipped-extra')
    writeFileSync(join(extra, 'artifacts', 'planted.png'), Buffer.from(REAL.png, 'base64'))
    const d = await runCli(extra)
    expect(d.stdout).toContain('artifacts/planted.png is in the folder but not in the manifest')
    expect(d.code).toBe(1)
  })

  it('exits 2 with usage or a missing path', async () => {
    expect((await runCli()).code).toBe(2)
    const missing = await runCli(join(dir, 'nope'))
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('no such file or folder')
  })
}, 60_000)

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8')
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** The events with `edit` applied and every hash from the first line on recomputed, as a forger holding the file would. */
function rehashed(jsonl: string, edit: (event: AuditEvent) => void): string {
  let prevHash = GENESIS_HASH
  const lines = jsonl.trimEnd().split('\n').map((line) => {
    const { hash: _old, ...event } = JSON.parse(line) as AuditEvent
    edit(event as AuditEvent)
    const sealed = sealEvent({ ...event, prevHash })
    prevHash = sealed.event.hash
    return sealed.line
  })
  return lines.join('\n') + '\n'
}

const approve = (event: AuditEvent) => {
  if (event.type === 'confirmation.answered') event.data.approved = true
}

/** The export with the rejection turned into an approval, every later hash and the manifest's head and hashes redone. */
function forgeApproval(files: Record<string, Uint8Array>): Record<string, unknown> {
  const events = Buffer.from(rehashed(text(files['events.jsonl']!), approve))
  files['events.jsonl'] = events
  const manifest = JSON.parse(text(files['manifest.json']!))
  const last = JSON.parse(text(events).trimEnd().split('\n').at(-1)!) as AuditEvent
  manifest.head = { seq: last.seq, hash: last.hash }
  Object.assign(manifest.files.find((f: { name: string }) => f.name === 'events.jsonl'), { sha256: sha256(events), bytes: events.length })
  files['manifest.json'] = Buffer.from(JSON.stringify(manifest, null, 2))
  return manifest
}

describe('npm run audit:verify and signatures', () => {
  it('fails an export re-hashed after a rejection was turned into an approval: the signature no longer matches', async () => {
    const path = rezip('rehashed.zip', forgeApproval)
    const { code, stdout } = await runCli(path)
    expect(stdout.trim()).toBe(
      'FAIL rehashed.zip: the signature does not match manifest.json: the manifest (its chain head, its file hashes or another field) was changed after it was signed',
    )
    expect(code).toBe(1)
  })

  it('fails a task folder re-hashed after the same edit: its signature.json signed another head', async () => {
    const copy = join(dir, 'rehashed-task')
    cpSync(taskDir, copy, { recursive: true })
    const events = join(copy, 'events.jsonl')
    writeFileSync(events, rehashed(readFileSync(events, 'utf8'), approve))
    const { code, stdout } = await runCli(copy)
    expect(stdout.trim()).toMatch(
      /^FAIL rehashed-task: the signature does not match the chain: it signed #4 [0-9a-f]{12}, the chain has [0-9a-f]{12} there, so the events were rewritten \(and re-hashed\) after they were signed$/,
    )
    expect(code).toBe(1)
  })

  it('fails an export whose replay.html was swapped, naming it', async () => {
    const path = rezip('swapped-page.zip', (files) => {
      files['replay.html'] = Buffer.from('<!doctype html><p>Approved by you.</p>')
    })
    const { code, stdout } = await runCli(path)
    expect(stdout.trim()).toBe("FAIL swapped-page.zip: replay.html does not match the manifest's sha256 (it was changed or swapped)")
    expect(code).toBe(1)
  })

  it('a forgery re-signed with another key passes only as "who signed is unknown", and fails against the real key', async () => {
    const other = loadOrCreateAuditKey(join(dir, 'forger-data'))
    const path = rezip('resigned.zip', (files) => {
      const { signature: _dropped, ...manifest } = forgeApproval(files)
      files['manifest.json'] = Buffer.from(JSON.stringify(signManifest(other, manifest), null, 2))
    })
    const unknown = await runCli(path)
    expect(unknown.stdout.trim()).toMatch(UNKNOWN_KEY)
    expect(unknown.stdout).toContain(`signed by ${other.key},`)
    expect(unknown.code).toBe(0)

    const checked = await runCli(path, '--key', key.key)
    expect(checked.stdout.trim()).toBe(`FAIL resigned.zip: it was signed with key ${other.key}, not with the expected ${key.key} (from --key)`)
    expect(checked.code).toBe(1)
  })

  it('passes an untouched export, unzipped or not, and a task folder, against the key by fingerprint or public key file', async () => {
    const folder = join(dir, 'unzipped-for-key')
    for (const [entry, bytes] of Object.entries(unzipSync(readFileSync(zipPath)))) {
      mkdirSync(dirname(join(folder, entry)), { recursive: true })
      writeFileSync(join(folder, entry), bytes)
    }
    for (const path of [zipPath, folder, taskDir]) {
      const byPrint = await runCli(path, '--key', key.key)
      expect(byPrint.stdout.trim(), path).toMatch(new RegExp(`; signed by ${key.key}, the key from --key$`))
      expect(byPrint.code).toBe(0)
    }
    const byFile = await runCli(taskDir, '--key', key.publicFile)
    expect(byFile.stdout.trim()).toMatch(new RegExp(`; signed by ${key.key}, the key from ${key.publicFile}$`))
    expect(byFile.code).toBe(0)
    const plain = await runCli(taskDir)
    expect(plain.stdout.trim()).toMatch(UNKNOWN_KEY)
  })

  it('fails an unsigned export, and says a bare events.jsonl carries no signature', async () => {
    const audit = join(dir, 'audit')
    const path = join(dir, 'unsigned.zip')
    await pipeline(
      await exportAuditZip({ log: createAuditLog({ dir: audit, fsync: false }), artifacts: createArtifactStore({ dir: audit, fsync: false }) }, 'cli-task'),
      createWriteStream(path),
    )
    const unsigned = await runCli(path)
    expect(unsigned.stdout.trim()).toBe(
      'FAIL unsigned.zip: the export is not signed (its manifest has no signature or file list), so anyone could have rewritten it whole',
    )
    expect(unsigned.code).toBe(1)

    const bare = await runCli(join(taskDir, 'events.jsonl'))
    expect(bare.stdout.trim()).toMatch(/; a bare events\.jsonl carries no signature: only the chain was checked, which whoever can edit the file can recompute$/)
    expect(bare.code).toBe(0)
    const asked = await runCli(join(taskDir, 'events.jsonl'), '--key', key.key)
    expect(asked.stdout.trim()).toBe('FAIL events.jsonl: a bare events.jsonl carries no signature, so nothing can be checked against the key from --key')
    expect(asked.code).toBe(1)
  })

  it('exits 2 when the key it is told to check against cannot be known', async () => {
    const bad = await runCli(zipPath, '--key', 'not-a-key')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--key takes a fingerprint')
    const noToken = await runCli(zipPath, '--server', 'http://127.0.0.1:9')
    expect(noToken.code).toBe(2)
    const down = await runCli(zipPath, '--server', 'http://127.0.0.1:9', '--token', 'x')
    expect(down.code).toBe(2)
    expect(down.stderr).toContain('did not answer')
  })
}, 60_000)

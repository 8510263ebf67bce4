import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { unzipSync, zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createArtifactStore, decodeArtifacts } from '../../server/lib/audit/artifacts'
import { exportAuditZip } from '../../server/lib/audit/export'
import { createAuditLog } from '../../server/lib/audit/log'
import { REAL, tempDir } from './audit-fixtures'

let dir: string
let cleanup: () => void
let taskDir: string
let zipPath: string
let artifactName: string

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
  const log = createAuditLog({ dir: audit, fsync: false })
  const artifacts = createArtifactStore({ dir: audit, fsync: false })
  await log.append('cli-task', { type: 'task.created', data: { goal: 'pay the bill', mode: 'script', source: {} } })
  const refs = await artifacts.write('cli-task', decodeArtifacts([{ label: 'before', contentType: 'image/png', data: REAL.png }], 1 << 20), '0001')
  artifactName = refs[0]!.name
  const observed = { status: 'done', url: 'https://bank.test/', title: 'Bank', errors: [], timing: {}, elementCount: 0, treeChars: 0 }
  await log.append('cli-task', { type: 'observation', actionId: 'a1', data: { ...observed, artifacts: refs } })
  await log.append('cli-task', { type: 'task.finished', data: { status: 'SUCCEEDED' } })
  taskDir = join(audit, 'cli-task')
  zipPath = join(dir, 'export.zip')
  await pipeline(await exportAuditZip({ log, artifacts }, 'cli-task'), createWriteStream(zipPath))
})
afterAll(() => cleanup())

describe('npm run audit:verify', () => {
  it.each([
    ['a task folder', () => taskDir, /^OK cli-task: task cli-task, 3 events, head #3 [0-9a-f]{12}, 1 artifacts match$/],
    ['an events.jsonl', () => join(taskDir, 'events.jsonl'), /^OK events\.jsonl: task cli-task, 3 events/],
    ['an exported zip', () => zipPath, /^OK export\.zip: .*head matches the manifest, 1 artifacts match$/],
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
    expect(stdout.trim()).toMatch(/^OK newer-task: task newer-task, 3 events, .*0 artifacts match; 2 events this version cannot read \(some\.future\.event, task\.finished\)$/)
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
    expect(stdout).toMatch(/^FAIL cut\.zip: events\.jsonl has 2 events, the manifest says 3/)
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
      manifest.artifacts[0].sha256 = createHash('sha256').update(fake).digest('hex')
      manifest.artifacts[0].bytes = fake.length
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
    expect(stdout.trim()).toMatch(/^FAIL edited\.zip: events\.jsonl line 3: hash does not match/)
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
    expect(stdout.trim()).toMatch(/^OK my-download: task cli-task, 3 events, head #3 [0-9a-f]{12}, head matches the manifest, 1 artifacts match$/)
    expect(code).toBe(0)
  })

  it('passes a task folder copied under another name', async () => {
    const copy = join(dir, 'renamed-task')
    cpSync(taskDir, copy, { recursive: true })
    const { code, stdout } = await runCli(copy)
    expect(stdout.trim()).toMatch(/^OK renamed-task: task cli-task, 3 events/)
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
    expect(b.stdout).toMatch(/^FAIL unzipped-cut: events\.jsonl has 2 events, the manifest says 3/)
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

import { createHash } from 'node:crypto'
import { createReadStream, promises as fsp } from 'node:fs'
import { basename, join, sep } from 'node:path'
import { ArtifactName, AuditManifest, parseAuditEvent, Sha256Hex, type AuditEvent, type VerifyResult } from '#protocol'
import { verifyChainStream } from './chain'
import { HEAD_SIGNATURE_FILE, readHeadSignature } from './head-signature'
import { judgeHeadSignature, judgeManifestSignature, judgeUnsigned, type KnownKey, type SignatureVerdict } from './verify-signature'
import { openZip, type ZipReader } from './zip-reader'

export type { KnownKey } from './verify-signature'

export interface VerifyOptions {
  /** The key the signature must have been made with; without it, any valid signature passes and the verdict says who signed is unknown. */
  key?: KnownKey
}

export interface AuditCheck {
  ok: boolean
  kind: 'folder' | 'events' | 'zip'
  taskId?: string
  chain?: VerifyResult
  /** Artifacts whose sha256 was checked. */
  artifacts: number
  /** The fingerprint of the key that made a valid signature, when there was one. */
  signedBy?: string
  /** One line for a person: what was checked, or the first thing that is wrong. */
  verdict: string
}

/** Artifact references the events carry (ArtifactRef objects anywhere in `data`), by name. */
interface Reference {
  sha256: string
  seq: number
}

const MAX_MANIFEST_BYTES = 64 * 1024 * 1024

function collectReferences(refs: Map<string, Reference>, conflicts: string[]) {
  const visit = (value: unknown, seq: number) => {
    if (Array.isArray(value)) return value.forEach((v) => visit(v, seq))
    if (!value || typeof value !== 'object') return
    const record = value as Record<string, unknown>
    if (ArtifactName.safeParse(record.name).success && Sha256Hex.safeParse(record.sha256).success) {
      const name = record.name as string
      const seen = refs.get(name)
      if (seen && seen.sha256 !== record.sha256) conflicts.push(`${name} is recorded with two different hashes (events ${seen.seq} and ${seq})`)
      else if (!seen) refs.set(name, { sha256: record.sha256 as string, seq })
    }
    for (const v of Object.values(record)) visit(v, seq)
  }
  return (event: AuditEvent) => visit(event.data, event.seq)
}

/**
 * Events whose type this version does not know, or whose data is not as their type says. They do not fail the
 * check (the chain proves the record whole, whatever wrote it), but a person is told they will not be shown.
 */
function unreadableEvents() {
  const types = new Map<string, number>()
  return {
    visit(event: AuditEvent) {
      const parsed = parseAuditEvent(event)
      if (parsed.type === 'unknown') types.set(event.type, (types.get(event.type) ?? 0) + 1)
    },
    note(): string {
      if (!types.size) return ''
      const n = [...types.values()].reduce((a, b) => a + b, 0)
      return `; ${n} event${n === 1 ? '' : 's'} this version cannot read (${[...types.keys()].join(', ')})`
    },
  }
}

async function sha256Of(chunks: AsyncIterable<Uint8Array>): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256')
  let bytes = 0
  for await (const chunk of chunks) {
    hash.update(chunk)
    bytes += chunk.length
  }
  return { sha256: hash.digest('hex'), bytes }
}

const exists = (path: string) =>
  fsp.access(path).then(
    () => true,
    () => false,
  )

const short = (hash: string) => hash.slice(0, 12)

function chainVerdict(label: string, chain: VerifyResult, taskId: string | undefined, file = 'events.jsonl '): string | null {
  if (!chain.ok) return `FAIL ${label}: ${file}line ${chain.problem!.line}: ${chain.problem!.reason}`
  if (!chain.head) return null
  return `task ${taskId}, ${chain.count} events, head #${chain.head.seq} ${short(chain.head.hash)}`
}

async function verifyEventsFile(path: string, { key }: VerifyOptions): Promise<AuditCheck> {
  let taskId: string | undefined
  const unreadable = unreadableEvents()
  const chain = await verifyChainStream(createReadStream(path), (e) => {
    taskId ??= e.taskId
    unreadable.visit(e)
  })
  const label = basename(path)
  const summary = chainVerdict(label, chain, taskId, '')
  if (!chain.ok) return { ok: false, kind: 'events', taskId, chain, artifacts: 0, verdict: summary! }
  const signed = judgeUnsigned('a bare events.jsonl carries no signature', key)
  if (!signed.ok) return { ok: false, kind: 'events', taskId, chain, artifacts: 0, verdict: `FAIL ${label}: ${signed.problem}` }
  return { ok: true, kind: 'events', taskId, chain, artifacts: 0, verdict: `OK ${label}: ${summary ?? 'no events'}${unreadable.note()}; ${signed.note}` }
}

/** An unzipped export: its files as the zip held them, so it is checked exactly as the zip would be. */
async function exportFolder(path: string): Promise<ExportFiles<{ name: string; size: number }>> {
  const entries: { name: string; size: number }[] = []
  for (const name of await fsp.readdir(path, { recursive: true })) {
    const stat = await fsp.stat(join(path, name))
    if (stat.isFile()) entries.push({ name: name.split(sep).join('/'), size: stat.size })
  }
  return { entries, read: (entry) => createReadStream(join(path, entry.name)) }
}

async function verifyFolder(path: string, options: VerifyOptions): Promise<AuditCheck> {
  const label = basename(path)
  // The task is the one its files name, whatever the folder is called.
  if (await exists(join(path, 'manifest.json'))) return verifyExportContents(label, await exportFolder(path), options, 'folder')
  const hasSignature = await exists(join(path, HEAD_SIGNATURE_FILE))
  const signature = hasSignature ? await readHeadSignature(path) : null
  let hashAtSeq: string | undefined
  const refs = new Map<string, Reference>()
  const conflicts: string[] = []
  const collect = collectReferences(refs, conflicts)
  let taskId: string | undefined
  const eventsPath = join(path, 'events.jsonl')
  try {
    await fsp.access(eventsPath)
  } catch {
    return { ok: false, kind: 'folder', artifacts: 0, verdict: `FAIL ${label}: no events.jsonl in the folder` }
  }
  const unreadable = unreadableEvents()
  const chain = await verifyChainStream(createReadStream(eventsPath), (e) => {
    taskId ??= e.taskId
    collect(e)
    unreadable.visit(e)
    if (e.seq === signature?.seq) hashAtSeq = e.hash
  })
  const fail = (why: string): AuditCheck => ({ ok: false, kind: 'folder', taskId, chain, artifacts: 0, verdict: `FAIL ${label}: ${why}` })
  if (!chain.ok) return { ...fail(''), verdict: chainVerdict(label, chain, taskId)! }
  if (hasSignature && !signature) return fail(`${HEAD_SIGNATURE_FILE} is not a signature this version can read`)
  if (conflicts.length) return fail(conflicts[0]!)
  for (const [name, ref] of refs) {
    let actual: string
    try {
      actual = (await sha256Of(createReadStream(join(path, 'artifacts', name)))).sha256
    } catch {
      return fail(`artifacts/${name}, recorded by event ${ref.seq}, is missing`)
    }
    if (actual !== ref.sha256) return fail(`artifacts/${name} does not match the sha256 event ${ref.seq} recorded`)
  }
  const signed = signature
    ? judgeHeadSignature(signature, { taskId, chain, hashAtSeq }, options.key)
    : judgeUnsigned(`not signed (no ${HEAD_SIGNATURE_FILE}: the task has not finished, or finished before audits were signed)`, options.key)
  if (!signed.ok) return fail(signed.problem)
  return {
    ok: true,
    kind: 'folder',
    taskId,
    chain,
    artifacts: refs.size,
    ...(signed.signedBy ? { signedBy: signed.signedBy } : {}),
    verdict: `OK ${label}: ${chainVerdict(label, chain, taskId) ?? 'no events'}, ${refs.size} artifacts match${unreadable.note()}; ${signed.note}`,
  }
}

/** What an export is made of, wherever it lies: in the zip, or unzipped into a folder of any name. */
interface ExportFiles<E extends { name: string; size: number }> {
  entries: E[]
  read(entry: E): AsyncIterable<Uint8Array>
}

/** manifest.json as it parsed (the signature covers every field of it) and as this version reads it. */
async function readManifest<E extends { name: string; size: number }>(
  zip: ExportFiles<E>,
  entry: E,
): Promise<{ raw: Record<string, unknown>; manifest: AuditManifest } | string> {
  if (entry.size > MAX_MANIFEST_BYTES) return 'manifest.json is implausibly large'
  const parts: Uint8Array[] = []
  for await (const chunk of zip.read(entry)) parts.push(chunk)
  try {
    const raw: unknown = JSON.parse(Buffer.concat(parts).toString('utf8'))
    return { raw: raw as Record<string, unknown>, manifest: AuditManifest.parse(raw) }
  } catch {
    return 'manifest.json is not a valid manifest'
  }
}

/** The first way the manifest disagrees with the chain it came with, or null. */
function manifestMismatch(manifest: AuditManifest, chain: VerifyResult, taskId: string | undefined): string | null {
  // The chain alone cannot show that lines were cut off its end; the head the server recorded can.
  if (taskId !== undefined && manifest.taskId !== taskId) return `manifest is for task ${manifest.taskId}, the events for ${taskId}`
  if (manifest.events !== chain.count) {
    return `events.jsonl has ${chain.count} events, the manifest says ${manifest.events} (lines were removed or added at the end)`
  }
  if (manifest.head?.seq !== chain.head?.seq || manifest.head?.hash !== chain.head?.hash) {
    return `the chain's head is not the manifest's head (${manifest.head ? `#${manifest.head.seq} ${short(manifest.head.hash)}` : 'none'})`
  }
  return null
}

/** Every file against the manifest's list, each hashed once; the first file that is not as listed, or null. */
async function filesMismatch<E extends { name: string; size: number }>(
  zip: ExportFiles<E>,
  listed: NonNullable<AuditManifest['files']>,
  artifacts: AuditManifest['artifacts'],
  where: string,
): Promise<string | null> {
  const byName = new Map(listed.map((f) => [f.name, f]))
  if (byName.size !== listed.length) return 'the manifest lists a file twice'
  for (const entry of zip.entries) {
    if (entry.name !== 'manifest.json' && !byName.has(entry.name)) return `${entry.name} is in ${where} but not in the manifest`
  }
  const entries = new Map(zip.entries.map((e) => [e.name, e]))
  for (const file of listed) {
    const entry = entries.get(file.name)
    if (!entry || file.name === 'manifest.json') return `${file.name} is in the manifest but missing from ${where}`
    const { sha256, bytes } = await sha256Of(zip.read(entry))
    if (sha256 !== file.sha256 || bytes !== file.bytes) return `${file.name} does not match the manifest's sha256 (it was changed or swapped)`
  }
  for (const artifact of artifacts) {
    const file = byName.get(`artifacts/${artifact.name}`)
    if (!file) return `artifacts/${artifact.name} is in the manifest but missing from ${where}`
    if (file.sha256 !== artifact.sha256 || file.bytes !== artifact.bytes) return `artifacts/${artifact.name} does not match the manifest's sha256`
  }
  return null
}

/**
 * An export, zipped or unzipped: the chain, the manifest's head and count, every file's sha256 as the manifest
 * lists it, the artifact hashes the events recorded, and last the manifest's signature, which is what stops
 * someone who edited a file from re-hashing everything after it.
 */
async function verifyExportContents<E extends { name: string; size: number }>(
  label: string,
  zip: ExportFiles<E>,
  { key }: VerifyOptions,
  kind: 'zip' | 'folder' = 'zip',
): Promise<AuditCheck> {
  const where = kind === 'zip' ? 'the zip' : 'the folder'
  const byName = new Map(zip.entries.map((e) => [e.name, e]))
  const fail = (why: string, chain?: VerifyResult, taskId?: string): AuditCheck => ({
    ok: false,
    kind,
    taskId,
    chain,
    artifacts: 0,
    verdict: `FAIL ${label}: ${why}`,
  })
  if (byName.size !== zip.entries.length) return fail('two entries share a name')
  const eventsEntry = byName.get('events.jsonl')
  const manifestEntry = byName.get('manifest.json')
  if (!eventsEntry) return fail(`no events.jsonl in ${where}`)
  if (!manifestEntry) return fail(`no manifest.json in ${where}`)

  const refs = new Map<string, Reference>()
  const conflicts: string[] = []
  const collect = collectReferences(refs, conflicts)
  let taskId: string | undefined
  const unreadable = unreadableEvents()
  const chain = await verifyChainStream(zip.read(eventsEntry), (e) => {
    taskId ??= e.taskId
    collect(e)
    unreadable.visit(e)
  })
  if (!chain.ok) return { ...fail('', chain, taskId), verdict: chainVerdict(label, chain, taskId)! }

  const read = await readManifest(zip, manifestEntry)
  if (typeof read === 'string') return fail(read, chain, taskId)
  const { raw, manifest } = read
  const mismatch = manifestMismatch(manifest, chain, taskId) ?? conflicts[0]
  if (mismatch) return fail(mismatch, chain, taskId)
  if (!manifest.signature || !manifest.files) {
    return fail('the export is not signed (its manifest has no signature or file list), so anyone could have rewritten it whole', chain, taskId)
  }
  const badFile = await filesMismatch(zip, manifest.files, manifest.artifacts, where)
  if (badFile) return fail(badFile, chain, taskId)
  const listed = new Map(manifest.artifacts.map((a) => [a.name, a]))
  for (const [name, ref] of refs) {
    const artifact = listed.get(name)
    if (!artifact) return fail(`artifacts/${name}, recorded by event ${ref.seq}, is missing`, chain, taskId)
    if (artifact.sha256 !== ref.sha256) return fail(`artifacts/${name} does not match the sha256 event ${ref.seq} recorded`, chain, taskId)
  }
  const signed: SignatureVerdict = judgeManifestSignature(raw, manifest.signature, key)
  if (!signed.ok) return fail(signed.problem, chain, taskId)
  return {
    ok: true,
    kind,
    taskId,
    chain,
    artifacts: manifest.artifacts.length,
    ...(signed.signedBy ? { signedBy: signed.signedBy } : {}),
    verdict:
      `OK ${label}: ${chainVerdict(label, chain, taskId) ?? 'no events'}, head matches the manifest, ` +
      `${manifest.files.length} files and ${manifest.artifacts.length} artifacts match${unreadable.note()}; ${signed.note}`,
  }
}

async function isZip(path: string): Promise<boolean> {
  const fh = await fsp.open(path, 'r')
  try {
    const head = Buffer.alloc(4)
    const { bytesRead } = await fh.read(head, 0, 4, 0)
    return bytesRead === 4 && head.readUInt32LE(0) === 0x04034b50
  } finally {
    await fh.close()
  }
}

/**
 * Checks a task folder (events.jsonl + artifacts/), a bare events.jsonl or an exported zip: the hash chain
 * always; the recorded artifact hashes where the artifacts are present; for a zip also its manifest.
 */
export async function verifyAuditPath(path: string, options: VerifyOptions = {}): Promise<AuditCheck> {
  const stat = await fsp.stat(path)
  if (stat.isDirectory()) return verifyFolder(path, options)
  if (!(await isZip(path))) return verifyEventsFile(path, options)
  const label = basename(path)
  let zip: ZipReader
  try {
    zip = await openZip(path)
  } catch (error) {
    return { ok: false, kind: 'zip', artifacts: 0, verdict: `FAIL ${label}: ${(error as Error).message}` }
  }
  try {
    return await verifyExportContents(label, zip, options)
  } catch (error) {
    return { ok: false, kind: 'zip', artifacts: 0, verdict: `FAIL ${label}: ${(error as Error).message}` }
  } finally {
    await zip.close()
  }
}

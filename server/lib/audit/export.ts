import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { pipeline, Readable } from 'node:stream'
import { crc32, createDeflateRaw } from 'node:zlib'
import { Zip, type ZipInputFile } from 'fflate'
import type { AuditEvent, AuditManifest, AuditManifestArtifact, AuditManifestFile, AuditSigner } from '#protocol'
import type { ArtifactStore } from './artifacts'
import { MAX_LINE_BYTES, parseEvents } from './chain'
import { splitLines } from './lines'
import type { AuditLog, AuditSnapshot } from './log'
import { signManifest, type Signer } from './signature'

const CHUNK = 64 * 1024

/** What an extra file of the export (e.g. replay.html) may draw on; everything streams. */
export interface ExportContext {
  taskId: string
  exportedAt: Date
  snapshot: AuditSnapshot
  /** The exported artifacts, with the sha256 each had as it went into the zip. */
  artifacts: AuditManifestArtifact[]
  /** The exported events, one at a time. */
  events(): AsyncIterable<AuditEvent>
  /** One exported artifact's bytes. */
  readArtifact(name: string): AsyncIterable<Uint8Array>
  /** The key that will sign the manifest, when the export is signed. */
  signer?: AuditSigner
}

/** An extra file: added after the artifacts and before manifest.json. */
export interface ExportExtra {
  name: string
  /** Deflate it (text); images and other compressed data are stored as they are. */
  deflate?: boolean
  content(context: ExportContext): AsyncIterable<Uint8Array> | Promise<Uint8Array | string> | Uint8Array | string
}

export interface ExportDeps {
  log: AuditLog
  artifacts: ArtifactStore
}

export interface ExportOptions {
  extras?: readonly ExportExtra[]
  /** Signs manifest.json, which lists the sha256 of every other file; unsigned without one. */
  signer?: Signer
  now?: () => Date
}

async function* chunksOf(content: Awaited<ReturnType<ExportExtra['content']>>): AsyncIterable<Uint8Array> {
  if (typeof content === 'string') yield new TextEncoder().encode(content)
  else if (content instanceof Uint8Array) yield content
  else yield* content
}

function snapshotStream(snapshot: AuditSnapshot): AsyncIterable<Uint8Array> {
  if (snapshot.bytes === 0) return (async function* () {})()
  return createReadStream(snapshot.path, { start: 0, end: snapshot.bytes - 1, highWaterMark: CHUNK })
}

/** Events one at a time from a snapshot (for extras that render them); lines that do not parse are skipped. */
async function* eventsOf(snapshot: AuditSnapshot): AsyncIterable<AuditEvent> {
  for await (const piece of splitLines(snapshotStream(snapshot), MAX_LINE_BYTES)) {
    if (piece.kind === 'line') yield* parseEvents(piece.text + '\n')
  }
}

/**
 * The task's audit as a zip that streams: events.jsonl (a snapshot that ends at a line the log acknowledged),
 * artifacts/*, any extras, then manifest.json, which lists the sha256 of every other file and is signed when
 * a signer is given. Files are read in chunks and the consumer's pace is respected,
 * so memory stays flat whatever the task's size. Resolves once the snapshot is taken, so a failure to start
 * can still be answered with an error; the caller checks the task exists first.
 */
export async function exportAuditZip({ log, artifacts }: ExportDeps, taskId: string, options: ExportOptions = {}): Promise<Readable> {
  const exportedAt = (options.now ?? (() => new Date()))()
  const snapshot = await log.snapshot(taskId)
  const listed = await artifacts.list(taskId)
  const chunks = zipChunks({ artifacts, taskId, exportedAt, snapshot, listed, extras: options.extras ?? [], signer: options.signer })
  return Readable.from(chunks, { objectMode: false, highWaterMark: CHUNK })
}

/** Deflated by zlib, off the main thread; an error on either side ends the iteration with it. */
function deflateRaw(chunks: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  return pipeline(Readable.from(chunks, { objectMode: false }), createDeflateRaw({ level: 6 }), () => {})
}

interface ZipJob {
  artifacts: ArtifactStore
  taskId: string
  exportedAt: Date
  snapshot: AuditSnapshot
  listed: { name: string }[]
  extras: readonly ExportExtra[]
  signer?: Signer
}

async function* zipChunks({ artifacts, taskId, exportedAt, snapshot, listed, extras, signer }: ZipJob) {
  const ready: Uint8Array[] = []
  let failure: Error | null = null
  const zip = new Zip((error, chunk) => {
    if (error) failure = error
    else ready.push(chunk)
  })
  function* take() {
    if (failure) throw failure
    while (ready.length) yield ready.shift()!
  }
  // Every file but the manifest, with the sha256 of what went in, for the manifest to list and sign.
  const files: AuditManifestFile[] = []
  // Entries are fed by hand rather than through fflate's ZipPassThrough/ZipDeflate: zlib's native CRC-32 and
  // deflate cost a fraction of their JavaScript ones, which dominated the CPU time of exporting screenshots.
  async function* addFile(name: string, deflate: boolean, chunks: AsyncIterable<Uint8Array>, onChunk?: (c: Uint8Array) => void) {
    const file: ZipInputFile = { filename: name, compression: deflate ? 8 : 0, crc: 0, size: 0, mtime: exportedAt }
    zip.add(file)
    let crc = 0
    let size = 0
    const hash = createHash('sha256')
    async function* original() {
      for await (const chunk of chunks) {
        onChunk?.(chunk)
        crc = crc32(chunk, crc)
        hash.update(chunk)
        size += chunk.length
        yield chunk
      }
    }
    for await (const chunk of deflate ? deflateRaw(original()) : original()) {
      // fflate's handler type asks for an ArrayBuffer-backed array; it only reads the bytes, as push() does.
      file.ondata!(null, chunk as Uint8Array<ArrayBuffer>, false)
      yield* take()
    }
    // The sizes and CRC go into the data descriptor that follows the entry, so they may be set last.
    file.crc = crc
    file.size = size
    file.ondata!(null, new Uint8Array(0), true)
    files.push({ name, bytes: size, sha256: hash.digest('hex') })
    yield* take()
  }

  let lines = 0
  yield* addFile('events.jsonl', true, snapshotStream(snapshot), (chunk) => {
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) lines++
  })

  const exported: AuditManifestArtifact[] = []
  for (const { name } of listed) {
    const opened = await artifacts.open(taskId, name)
    if (!opened) continue // removed since the listing
    yield* addFile(`artifacts/${name}`, false, opened.stream)
    const { bytes, sha256 } = files.at(-1)!
    exported.push({ name, bytes, sha256 })
  }

  const context: ExportContext = {
    taskId,
    exportedAt,
    snapshot,
    artifacts: exported,
    events: () => eventsOf(snapshot),
    async *readArtifact(name) {
      const opened = await artifacts.open(taskId, name)
      if (opened) yield* opened.stream
    },
    ...(signer ? { signer: { algorithm: signer.algorithm, key: signer.key, publicKey: signer.publicKey } } : {}),
  }
  for (const extra of extras) yield* addFile(extra.name, extra.deflate ?? true, chunksOf(await extra.content(context)))

  const manifest: AuditManifest = {
    taskId,
    exportedAt: exportedAt.toISOString(),
    events: lines,
    head: snapshot.head,
    artifacts: exported,
    files,
  }
  const signed = signer ? signManifest(signer, manifest) : manifest
  yield* addFile('manifest.json', true, chunksOf(JSON.stringify(signed, null, 2) + '\n'))
  zip.end()
  yield* take()
}

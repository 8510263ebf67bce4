import { createReadStream, promises as fsp } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { pipeline } from 'node:stream'
import { createInflateRaw } from 'node:zlib'

export interface ZipEntry {
  name: string
  method: number
  compressedSize: number
  size: number
  localOffset: number
}

export interface ZipReader {
  entries: ZipEntry[]
  /** The entry's uncompressed bytes, streamed; throws when they do not add up to the recorded size. */
  read(entry: ZipEntry): AsyncIterable<Uint8Array>
  close(): Promise<void>
}

export class ZipFormatError extends Error {
  override name = 'ZipFormatError'
}

const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length)
  const { bytesRead } = await fh.read(buffer, 0, length, position)
  if (bytesRead !== length) throw new ZipFormatError('the zip is cut short')
  return buffer
}

/**
 * Reads a zip through its central directory, which records every entry's real size: unlike a front-to-back
 * scan, it cannot be fooled by stored image bytes that happen to look like a header. Streams each entry,
 * so an archive of any size is checked in little memory. No zip64 (Tandem's exports never need it).
 */
export async function openZip(path: string): Promise<ZipReader> {
  const fh = await fsp.open(path, 'r')
  try {
    const { size } = await fh.stat()
    const tailLength = Math.min(size, 22 + 0xffff)
    const tail = await readAt(fh, size - tailLength, tailLength)
    let eocd = -1
    for (let at = tail.length - 22; at >= 0; at--) {
      if (tail.readUInt32LE(at) === EOCD) {
        eocd = at
        break
      }
    }
    if (eocd === -1) throw new ZipFormatError('not a zip, or the end of it is missing')
    const count = tail.readUInt16LE(eocd + 10)
    const dirSize = tail.readUInt32LE(eocd + 12)
    const dirOffset = tail.readUInt32LE(eocd + 16)
    if (count === 0xffff || dirOffset === 0xffffffff) throw new ZipFormatError('zip64 archives are not supported')
    if (dirOffset + dirSize > size) throw new ZipFormatError('the zip directory points past the end of the file')
    const dir = await readAt(fh, dirOffset, dirSize)
    const entries: ZipEntry[] = []
    let at = 0
    for (let i = 0; i < count; i++) {
      if (at + 46 > dir.length || dir.readUInt32LE(at) !== CENTRAL) throw new ZipFormatError('the zip directory is damaged')
      const nameLength = dir.readUInt16LE(at + 28)
      const skip = nameLength + dir.readUInt16LE(at + 30) + dir.readUInt16LE(at + 32)
      entries.push({
        method: dir.readUInt16LE(at + 10),
        compressedSize: dir.readUInt32LE(at + 20),
        size: dir.readUInt32LE(at + 24),
        localOffset: dir.readUInt32LE(at + 42),
        name: dir.toString('utf8', at + 46, at + 46 + nameLength),
      })
      at += 46 + skip
    }

    return {
      entries,
      async *read(entry) {
        const local = await readAt(fh, entry.localOffset, 30)
        if (local.readUInt32LE(0) !== LOCAL) throw new ZipFormatError(`${entry.name}: damaged local header`)
        const start = entry.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28)
        if (start + entry.compressedSize > size) throw new ZipFormatError(`${entry.name}: data runs past the end of the zip`)
        if (entry.method !== 0 && entry.method !== 8) throw new ZipFormatError(`${entry.name}: unsupported compression`)
        let total = 0
        if (entry.compressedSize > 0) {
          const raw = createReadStream(path, { start, end: start + entry.compressedSize - 1, highWaterMark: 64 * 1024 })
          // pipeline, not pipe: an error or an early stop on either side closes both.
          const source: AsyncIterable<Buffer> = entry.method === 8 ? pipeline(raw, createInflateRaw(), () => {}) : raw
          for await (const chunk of source) {
            total += chunk.length
            if (total > entry.size) throw new ZipFormatError(`${entry.name}: more data than the directory records`)
            yield chunk
          }
        }
        if (total !== entry.size) throw new ZipFormatError(`${entry.name}: less data than the directory records`)
      },
      close: () => fh.close(),
    }
  } catch (error) {
    await fh.close()
    throw error
  }
}

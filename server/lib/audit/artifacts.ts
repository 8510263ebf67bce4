import { constants, promises as fsp } from 'node:fs'
import type { Readable } from 'node:stream'
import { dirname, join, resolve, sep } from 'node:path'
import { customAlphabet } from 'nanoid'
import { ArtifactName, ArtifactUpload, type ArtifactLabel, type ArtifactMark, type ArtifactRef } from '#protocol'
import { sha256Hex } from './chain'
import { syncDir, writeAll } from './durable'
import { ArtifactError } from './errors'
import { CONTENT_TYPE_OF_EXTENSION, detectImageType, IMAGE_EXTENSIONS, type ImageType } from './image-type'
import { assertTaskId } from './log'

export { ArtifactError } from './errors'

export interface DecodedArtifact {
  label: ArtifactLabel
  contentType: ImageType
  bytes: Buffer
  sha256: string
  mark?: ArtifactMark
}

export interface StoredArtifact {
  name: string
  bytes: number
}

export interface OpenedArtifact extends StoredArtifact {
  contentType: ImageType
  /** The file's bytes; the caller must consume or destroy it (that closes the file). */
  stream: Readable
}

export interface ArtifactStore {
  /** Writes the files under server-made names and returns what the audit should record about them. */
  write(taskId: string, decoded: DecodedArtifact[], prefix: string): Promise<ArtifactRef[]>
  /** null when there is no such file; throws ArtifactError for a name the server would never have made. */
  open(taskId: string, name: string): Promise<OpenedArtifact | null>
  /** The task's artifacts, by name. */
  list(taskId: string): Promise<StoredArtifact[]>
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/
const DATA_URL = /^data:([a-z]+\/[a-z0-9.+-]+);base64,/
const PREFIX = /^[A-Za-z0-9_-]{1,128}$/
const shortId = customAlphabet('0123456789abcdefghijklmnopqrstuvwxyz', 10)

function decodeOne(upload: unknown, index: number, maxBytes: number): DecodedArtifact {
  const which = `Screenshot ${index + 1}`
  const parsed = ArtifactUpload.safeParse(upload)
  if (!parsed.success) throw new ArtifactError(`${which} is not a valid upload: it needs a label, an image contentType and base64 data.`)
  const { label, contentType } = parsed.data
  let data = parsed.data.data
  // captureVisibleTab hands out data URLs; accept one as long as it claims the same type.
  const dataUrl = DATA_URL.exec(data)
  if (dataUrl) {
    if (dataUrl[1] !== contentType) throw new ArtifactError(`${which} is declared ${contentType} but its data URL says otherwise.`)
    data = data.slice(dataUrl[0].length)
  }
  if (data.length % 4 !== 0 || !BASE64.test(data)) throw new ArtifactError(`${which} is not valid base64.`)
  const size = (data.length / 4) * 3 - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0)
  if (size > maxBytes) throw new ArtifactError(`${which} is larger than ${maxBytes} bytes.`, 'PAYLOAD_TOO_LARGE')
  if (size === 0) throw new ArtifactError(`${which} is empty.`)
  const bytes = Buffer.from(data, 'base64')
  const actual = detectImageType(bytes)
  if (!actual) throw new ArtifactError(`${which} is not a complete PNG, JPEG or WebP image.`)
  if (actual !== contentType) throw new ArtifactError(`${which} is declared ${contentType} but is ${actual}.`)
  return { label, contentType, bytes, sha256: sha256Hex(bytes), ...(parsed.data.mark ? { mark: parsed.data.mark } : {}) }
}

/** Decodes and checks every upload before anything is written, so a bad one leaves no partial evidence behind. */
export function decodeArtifacts(uploads: ArtifactUpload[], maxBytes: number): DecodedArtifact[] {
  return uploads.map((upload, index) => decodeOne(upload, index, maxBytes))
}

/** Artifact files under `<dir>/<taskId>/artifacts/`. */
export function createArtifactStore({ dir, fsync = true }: { dir: string; fsync?: boolean }): ArtifactStore {
  const root = resolve(dir)
  const folderOf = (taskId: string) => {
    assertTaskId(taskId)
    return join(root, taskId, 'artifacts')
  }

  /** The path of a stored artifact, or an ArtifactError: the name must be one we make and stay in the folder. */
  async function pathOf(taskId: string, name: string): Promise<{ folder: string; path: string } | null> {
    // The schema already refuses / \ .. NUL and %; the checks after it hold even if that pattern is ever loosened.
    if (!ArtifactName.safeParse(name).success || name.includes('\0')) throw new ArtifactError('That is not an artifact name.')
    const folder = folderOf(taskId)
    const path = resolve(folder, name)
    if (dirname(path) !== folder || !path.startsWith(folder + sep)) throw new ArtifactError('That is not an artifact name.')
    let real: string
    let realFolder: string
    try {
      ;[real, realFolder] = await Promise.all([fsp.realpath(path), fsp.realpath(folder)])
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
    // A symlink planted in the folder must not lead elsewhere.
    if (dirname(real) !== realFolder) throw new ArtifactError('That is not an artifact name.')
    return { folder, path }
  }

  return {
    async write(taskId, decoded, prefix) {
      if (!PREFIX.test(prefix)) throw new ArtifactError('An artifact prefix is 1–128 letters, digits, _ or -.')
      const folder = folderOf(taskId)
      if (!decoded.length) return []
      await fsp.mkdir(folder, { recursive: true, mode: 0o700 })
      const refs: ArtifactRef[] = []
      for (const artifact of decoded) {
        const name = `${prefix}-${artifact.label}-${shortId()}.${IMAGE_EXTENSIONS[artifact.contentType]}`
        const path = join(folder, name)
        // Written under a hidden name and renamed: a crash never leaves a half file under a real name.
        const temp = join(folder, `.${name}.tmp`)
        try {
          const fh = await fsp.open(temp, 'wx', 0o600)
          try {
            await writeAll(fh, artifact.bytes)
            if (fsync) await fh.datasync()
          } finally {
            await fh.close()
          }
          await fsp.rename(temp, path)
        } catch (error) {
          await fsp.rm(temp, { force: true })
          throw error
        }
        const mark = artifact.mark ? { mark: artifact.mark } : {}
        refs.push({ name, label: artifact.label, contentType: artifact.contentType, bytes: artifact.bytes.length, sha256: artifact.sha256, ...mark })
      }
      if (fsync) {
        await syncDir(folder)
        await syncDir(dirname(folder))
      }
      return refs
    },

    async open(taskId, name) {
      const found = await pathOf(taskId, name)
      if (!found) return null
      let fh: fsp.FileHandle
      try {
        fh = await fsp.open(found.path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
      const stat = await fh.stat().catch(async (error) => {
        await fh.close()
        throw error
      })
      if (!stat.isFile()) {
        await fh.close()
        return null
      }
      const contentType = CONTENT_TYPE_OF_EXTENSION[name.slice(name.lastIndexOf('.') + 1)]!
      return { name, bytes: stat.size, contentType, stream: fh.createReadStream({ highWaterMark: 64 * 1024 }) }
    },

    async list(taskId) {
      const folder = folderOf(taskId)
      let entries: import('node:fs').Dirent[]
      try {
        entries = await fsp.readdir(folder, { withFileTypes: true })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
        throw error
      }
      const names = entries.filter((e) => e.isFile() && ArtifactName.safeParse(e.name).success).map((e) => e.name)
      names.sort()
      return Promise.all(names.map(async (name) => ({ name, bytes: (await fsp.stat(join(folder, name))).size })))
    },
  }
}

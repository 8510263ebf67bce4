import { promises as fsp } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'

/** Makes new directory entries durable; platforms that cannot fsync a directory skip it. */
export async function syncDir(path: string): Promise<void> {
  let fh: FileHandle | undefined
  try {
    fh = await fsp.open(path, 'r')
    await fh.sync()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw error
  } finally {
    await fh?.close()
  }
}

/** fh.write may write less than asked; a log line cut short would be a torn line we made ourselves. */
export async function writeAll(fh: FileHandle, buffer: Uint8Array): Promise<void> {
  let done = 0
  while (done < buffer.length) done += (await fh.write(buffer, done, buffer.length - done)).bytesWritten
}

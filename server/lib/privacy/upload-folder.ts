import { readFileSync, realpathSync, statSync } from 'node:fs'
import { dirname, extname, join } from 'node:path'
import { MAX_UPLOAD_BYTES } from '#protocol'

export type UploadCheck = { ok: true; path: string; bytes: number } | { ok: false; message: string }
export type UploadRead = { ok: true; content: string; mime: string; bytes: number } | { ok: false; message: string }

const MIME: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.zip': 'application/zip',
}

/** A plain file name: no folder part, no parent, nothing a path could be built from. */
export const isPlainName = (name: string) =>
  name.length > 0 && name.length <= 255 && name !== '.' && name !== '..' && !/[/\\\u0000-\u001f]/.test(name) && !/^[a-zA-Z]:/.test(name)

/**
 * The folder the person set for uploads (TANDEM_UPLOAD_DIR): an upload step may hand over a file from it, by its
 * plain name, and nothing else. A name that resolves outside it (a link pointing elsewhere) is refused like a path.
 */
export function createUploadFolder(dir: string | undefined, maxBytes = MAX_UPLOAD_BYTES) {
  const check = (name: string): UploadCheck => {
    if (!dir) return { ok: false, message: 'No upload folder is set on the Tandem server (TANDEM_UPLOAD_DIR), so no file can be uploaded.' }
    if (!isPlainName(name)) return { ok: false, message: `"${name.slice(0, 100)}" is not a plain file name: name a file directly inside the upload folder.` }
    let folder: string
    let path: string
    try {
      folder = realpathSync(dir)
      path = realpathSync(join(folder, name))
    } catch {
      return { ok: false, message: `There is no file "${name}" in the upload folder.` }
    }
    if (dirname(path) !== folder) return { ok: false, message: `"${name}" leads outside the upload folder.` }
    const stat = statSync(path)
    if (!stat.isFile()) return { ok: false, message: `"${name}" in the upload folder is not a file.` }
    if (stat.size > maxBytes) return { ok: false, message: `"${name}" is ${stat.size} bytes; uploads are limited to ${maxBytes} bytes.` }
    return { ok: true, path, bytes: stat.size }
  }
  return {
    check,
    /** The file's bytes (base64) for the approved step; checked again, as the folder may have changed since. */
    read(name: string): UploadRead {
      const checked = check(name)
      if (!checked.ok) return checked
      const data = readFileSync(checked.path)
      if (data.length > maxBytes) return { ok: false, message: `"${name}" grew past ${maxBytes} bytes.` }
      return { ok: true, content: data.toString('base64'), mime: MIME[extname(name).toLowerCase()] ?? 'application/octet-stream', bytes: data.length }
    },
  }
}
export type UploadFolder = ReturnType<typeof createUploadFolder>

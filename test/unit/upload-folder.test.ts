import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createUploadFolder, isPlainName } from '../../server/lib/privacy/upload-folder'

function folder() {
  const root = mkdtempSync(join(tmpdir(), 'tandem-upload-'))
  const dir = join(root, 'uploads')
  mkdirSync(dir)
  mkdirSync(join(dir, 'sub'))
  writeFileSync(join(dir, 'cv.pdf'), '%PDF-1.4 cv')
  writeFileSync(join(dir, 'sub', 'inner.txt'), 'inner')
  writeFileSync(join(root, 'secret.txt'), 'secret')
  symlinkSync(join(root, 'secret.txt'), join(dir, 'link.txt'))
  writeFileSync(join(dir, 'big.bin'), Buffer.alloc(2048))
  return { root, dir }
}

describe('the upload folder: only plain names of files inside it', () => {
  it('hands over a file in the folder, base64 with its type', () => {
    const { dir } = folder()
    const read = createUploadFolder(dir).read('cv.pdf')
    expect(read).toEqual({ ok: true, content: Buffer.from('%PDF-1.4 cv').toString('base64'), mime: 'application/pdf', bytes: 11 })
  })

  it('refuses every way out of the folder: parents, sub-folders, absolute paths, links that lead outside', () => {
    const { root, dir } = folder()
    const uploads = createUploadFolder(dir)
    for (const name of ['../secret.txt', 'sub/inner.txt', 'sub\\inner.txt', join(root, 'secret.txt'), '..', '.', 'C:secret.txt', 'cv.pdf\u0000.txt', '']) {
      const checked = uploads.check(name)
      expect(checked.ok, name).toBe(false)
      expect(uploads.read(name).ok, name).toBe(false)
    }
    expect(uploads.check('link.txt')).toEqual({ ok: false, message: '"link.txt" leads outside the upload folder.' })
    expect(uploads.check('sub')).toEqual({ ok: false, message: '"sub" in the upload folder is not a file.' })
    expect(uploads.check('nope.pdf')).toEqual({ ok: false, message: 'There is no file "nope.pdf" in the upload folder.' })
    expect(isPlainName('résumé 2024.pdf')).toBe(true)
  })

  it('refuses a file over the size bound, and everything when no folder is set', () => {
    const { dir } = folder()
    expect(createUploadFolder(dir, 1024).check('big.bin')).toEqual({ ok: false, message: '"big.bin" is 2048 bytes; uploads are limited to 1024 bytes.' })
    expect(createUploadFolder(undefined).check('cv.pdf')).toEqual({
      ok: false,
      message: 'No upload folder is set on the Tandem server (TANDEM_UPLOAD_DIR), so no file can be uploaded.',
    })
  })
})

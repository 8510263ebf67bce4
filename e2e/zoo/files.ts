import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** PNG signature and an empty IHDR: enough for an upload's type checks, nothing anyone would mind sending. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')

/**
 * The folder of files the person chose to let tasks upload: the server is told it (as a person configures it), the
 * baseline picks from it too. Made fresh per run, so nothing else on the machine is reachable through it.
 */
export function makeUploadFolder(dir: string): string {
  mkdirSync(dir, { recursive: true })
  const pdf = (title: string) => `%PDF-1.4\n% ${title}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`
  writeFileSync(join(dir, 'contract.pdf'), pdf('contract'))
  writeFileSync(join(dir, 'resume.pdf'), pdf('resume'))
  writeFileSync(join(dir, 'id-photo.png'), PNG)
  return dir
}

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { unzipSync } from 'fflate'
import { CANARIES, digitForms, type CanaryName } from './canaries'

/** One canary found: where, which, and in what form; never the value itself. */
export interface Hit {
  file: string
  canary: CanaryName
  form: string
}

export interface ScanReport {
  /** Text files read, zip entries included. */
  files: number
  bytes: number
  zips: number
  /** Images cannot be read for text: the e2e pixel checks stand for them. */
  images: number
  imageBytes: number
  hits: Hit[]
}

const IMAGE = /\.(jpe?g|png|webp|gif)$/i

const jsonUnescape = (text: string) =>
  text.replace(/\\u([0-9a-fA-F]{4})|\\(["\\/bfnrt])/g, (_, hex: string | undefined, c: string | undefined) =>
    hex ? String.fromCharCode(parseInt(hex, 16)) : ({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[c!] ?? c!,
  )
const htmlUnescape = (text: string) =>
  text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10))
      : ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[e]!,
  )
const urlDecode = (text: string) =>
  text.replace(/\+/g, ' ').replace(/(%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run)
    } catch {
      return run
    }
  })
// Separators people and pages put inside card and phone numbers, dropped so "4539 1726…" and "+86-138…" match.
const squeeze = (text: string) => text.replace(/[\s\u00a0().+\-]/g, '')

/** The ways a text may carry a value: as it is, JSON-escaped (once or twice), HTML-escaped, URL-encoded. */
function views(text: string): [string, string][] {
  const json = jsonUnescape(text)
  return [
    ['raw', text],
    ['json-escaped', json],
    ['json-escaped twice', jsonUnescape(json)],
    ['html-escaped', htmlUnescape(text)],
    ['html-escaped json', htmlUnescape(json)],
    ['url-encoded', urlDecode(text)],
    ['url-encoded json', urlDecode(json)],
  ]
}

/** Every canary in a text, once per canary, under the first form it was found in. */
export function findCanaries(text: string): { canary: CanaryName; form: string }[] {
  const found = new Map<CanaryName, string>()
  for (const [form, view] of views(text)) {
    const squeezed = squeeze(view)
    for (const name of Object.keys(CANARIES) as CanaryName[]) {
      if (found.has(name)) continue
      if (view.includes(CANARIES[name])) found.set(name, form)
      else if (digitForms(name).some((d) => squeezed.includes(d))) found.set(name, `${form}, digits without separators`)
    }
  }
  return [...found].map(([canary, form]) => ({ canary, form }))
}

/**
 * Reads every file under `root`: text files for the canaries in every form above, zip files entry by entry.
 * Images are counted, not read.
 */
export function scanOutputs(root: string): ScanReport {
  const report: ScanReport = { files: 0, bytes: 0, zips: 0, images: 0, imageBytes: 0, hits: [] }
  const scanText = (file: string, bytes: Uint8Array) => {
    report.files++
    report.bytes += bytes.length
    for (const hit of findCanaries(Buffer.from(bytes).toString('utf8'))) report.hits.push({ file, ...hit })
  }
  const scanFile = (file: string, bytes: Uint8Array) => {
    if (IMAGE.test(file)) {
      report.images++
      report.imageBytes += bytes.length
    } else if (/\.zip$/i.test(file)) {
      report.zips++
      let entries: Record<string, Uint8Array>
      try {
        entries = unzipSync(bytes)
      } catch {
        // A zip that cannot be opened is still read as bytes: whatever it holds in the clear is found.
        return scanText(file, bytes)
      }
      for (const [name, data] of Object.entries(entries)) if (!name.endsWith('/')) scanFile(`${file}!${name}`, data)
    } else scanText(file, bytes)
  }
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      const stat = statSync(path, { throwIfNoEntry: false })
      if (!stat) continue
      if (stat.isDirectory()) walk(path)
      else if (stat.isFile()) scanFile(relative(root, path), readFileSync(path))
    }
  }
  walk(root)
  return report
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/** The report as the run prints it: the figures, then each hit by file and canary name. */
export function describeScan(report: ScanReport): string {
  const lines = [
    `output scan: ${report.files} files, ${report.bytes} bytes (${mb(report.bytes)}) read, ${report.zips} zip exports opened, ` +
      `${report.images} screenshots (${mb(report.imageBytes)}) left to the e2e pixel checks; ${report.hits.length} canary hits`,
  ]
  for (const hit of report.hits) lines.push(`  ${hit.file}: ${hit.canary} (${hit.form})`)
  return lines.join('\n')
}

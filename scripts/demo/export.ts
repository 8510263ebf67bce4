import { createWriteStream, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { keyFromServer } from '../../server/lib/audit/known-key'
import { verifyAuditPath, type AuditCheck } from '../../server/lib/audit/verify-export'
import { openZip } from '../../server/lib/audit/zip-reader'
import { DemoFailure, type DemoText } from './messages'

export interface SavedExport {
  path: string
  entries: string[]
}

/** Downloads the task's audit zip into `outDir/<taskId>.zip` and lists what it holds. */
export async function saveExport(server: { url: string; token: string }, taskId: string, outDir: string, t: DemoText): Promise<SavedExport> {
  const res = await fetch(`${server.url}/api/audit/${taskId}/export`, { headers: { authorization: `Bearer ${server.token}` } })
  if (!res.ok || !res.body) throw new DemoFailure('export', t('error.export', { status: res.status }))
  mkdirSync(outDir, { recursive: true })
  const path = join(outDir, `${taskId}.zip`)
  await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), createWriteStream(path))
  const zip = await openZip(path)
  try {
    const entries = zip.entries.map((e) => e.name)
    if (!entries.includes('events.jsonl')) throw new DemoFailure('export', t('error.zip', { what: 'events.jsonl' }))
    if (!entries.some((name) => name.startsWith('artifacts/'))) throw new DemoFailure('export', t('error.zip', { what: 'artifacts/' }))
    return { path, entries }
  } finally {
    await zip.close()
  }
}

/** Checks the zip's hash chain, every file's hash and its signature by the demo server's key, as `npm run audit:verify -- --server` does. */
export async function verifyExport(path: string, server: { url: string; token: string }, t: DemoText): Promise<AuditCheck> {
  const check = await verifyAuditPath(path, { key: await keyFromServer(server.url, server.token) })
  if (!check.ok) throw new DemoFailure('verify', t('error.chain', { verdict: check.verdict }))
  return check
}

import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyAuditPath } from '../../server/lib/audit/verify-export'
import { openZip } from '../../server/lib/audit/zip-reader'
import { recordLongTask, varyJpeg, type LongTask } from '../support/long-task'
import { startServer, type TestServer } from '../support/server'
import { makePng, REAL } from '../unit/audit-fixtures'

const STEPS = 300

let server: TestServer
let task: LongTask
let folder: string
beforeAll(async () => {
  server = await startServer()
  folder = mkdtempSync(join(tmpdir(), 'tandem-export-large-'))
  const jpeg = Buffer.from(REAL.jpeg, 'base64')
  task = await recordLongTask(server, {
    steps: STEPS,
    screenshots: (step) => [
      { label: 'before', contentType: 'image/png', data: makePng(48, 32, (i) => (i * 31 + step * 7) ^ (i >> 3)).toString('base64') },
      { label: 'after', contentType: 'image/jpeg', data: varyJpeg(jpeg, `step ${step}`).toString('base64') },
    ],
  })
}, 300_000)
afterAll(async () => {
  await server?.close()
  if (folder) rmSync(folder, { recursive: true, force: true })
})

/** The export streamed straight to a file, as a browser download would be. */
function download(taskId: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/api/audit/${taskId}/export`, { headers: { authorization: `Bearer ${server.token}` } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`export answered ${res.statusCode}`))
      pipeline(res, createWriteStream(path)).then(() => resolve(statSync(path).size), reject)
    })
    req.on('error', reject).end()
  })
}

describe('the export of a long task', () => {
  it(`carries all ${STEPS} steps and ${STEPS * 2} screenshots, and the zip verifies`, async () => {
    expect(task.reports).toBe(STEPS)
    expect(task.screenshots).toBe(STEPS * 2)
    const path = join(folder, 'export.zip')
    expect(await download(task.taskId, path)).toBeGreaterThan(task.screenshotBytes)

    const check = await verifyAuditPath(path)
    expect(check.verdict).toMatch(/^OK /)
    expect(check.ok).toBe(true)
    expect(check.taskId).toBe(task.taskId)
    expect(check.artifacts).toBe(STEPS * 2)

    const audit = await server.api('GET', `/api/audit/${task.taskId}`)
    const events = audit.body.data.events as { seq: number; type: string }[]
    expect(check.chain?.count).toBe(events.length)
    expect(events.filter((e) => e.type === 'observation')).toHaveLength(STEPS)
    expect(check.chain?.head?.seq).toBe(events.at(-1)!.seq)
  })

  it('inlines every event in the replay page, in order', async () => {
    const path = join(folder, 'replay.zip')
    await download(task.taskId, path)
    const zip = await openZip(path)
    try {
      const entry = zip.entries.find((e) => e.name === 'replay.html')!
      const parts: Buffer[] = []
      for await (const chunk of zip.read(entry)) parts.push(Buffer.from(chunk))
      const html = Buffer.concat(parts).toString('utf8')
      const block = /<script type="application\/json" id="tandem-events">([\s\S]*?)<\/script>/.exec(html)![1]!
      const inlined = JSON.parse(block) as { seq: number }[]
      expect(inlined.map((e) => e.seq)).toEqual(inlined.map((_, i) => i + 1))
      expect(inlined.length).toBe(verifiedCount(html))
    } finally {
      await zip.close()
    }
  })
})

/** The replay page's own verdict on the chain it inlined: the count it verified. */
function verifiedCount(html: string): number {
  const verified = JSON.parse(/<script type="application\/json" id="tandem-verified">([\s\S]*?)<\/script>/.exec(html)![1]!) as { ok: boolean; count: number }
  expect(verified.ok).toBe(true)
  return verified.count
}

/**
 * A long task recorded through the real server: a script of `steps` clicks, each reported with an observation
 * and its screenshots, so the events, the artifact files and their hashes are exactly what the engine writes.
 * Shared by the export integration test and bench/export.ts.
 */
import type { ArtifactUpload, ObservationInput, ScriptStep } from '#protocol'
import type { TestServer } from './server'

export interface LongTaskOptions {
  steps: number
  /** The screenshots reported with the `step`th action (0-based). */
  screenshots(step: number): ArtifactUpload[]
  clientId?: string
}

export interface LongTask {
  taskId: string
  reports: number
  screenshots: number
  screenshotBytes: number
}

const TERMINAL = new Set(['SUCCEEDED', 'FAILED', 'CANCELED'])

/** A product-list page's tree: enough elements that each observation event has a realistic size. */
function pageTree(step: number): string {
  const lines = ['[0]<a href="/">Home</a>', '[1]<input type=search name=q placeholder="Search">']
  for (let i = 0; i < 30; i++) lines.push(`[${i + 2}]<a href="/p/${step * 30 + i}">Product ${step * 30 + i} with a descriptive name</a>`)
  lines.push(`[32]<button>Next ${step + 1}</button>`)
  return lines.join('\n')
}

function observation(step: number, artifacts: ArtifactUpload[]): ObservationInput {
  return {
    status: 'done',
    url: `http://127.0.0.1:9/shop/list?page=${step + 1}`,
    title: `Products, page ${step + 1}`,
    elementTree: pageTree(step),
    visibleTextSnippet: `Products, page ${step + 1}. Showing 30 of 30,000 results. Sort by price. `.repeat(6),
    artifacts,
    errors: [],
    timing: { totalMs: 40 + (step % 17) },
  }
}

/** jpeg with a comment segment after its start marker: the same picture under a different sha256. */
export function varyJpeg(jpeg: Uint8Array, label: string): Buffer {
  const text = Buffer.from(label, 'utf8')
  const segment = Buffer.alloc(4)
  segment.writeUInt16BE(0xfffe, 0)
  segment.writeUInt16BE(text.length + 2, 2)
  return Buffer.concat([jpeg.subarray(0, 2), segment, text, jpeg.subarray(2)])
}

async function call(server: TestServer, path: string, body: unknown) {
  const res = await server.api('POST', path, body)
  if (res.status !== 200 || res.body?.ok !== true) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`)
  return res.body.data
}

/** Runs the whole task to SUCCEEDED, one action in flight at a time, as the extension would. */
export async function recordLongTask(server: TestServer, { steps, screenshots, clientId = 'client_long_task' }: LongTaskOptions): Promise<LongTask> {
  const script: ScriptStep[] = Array.from({ length: steps }, (_, i) => ({ type: 'click', text: `Next ${i + 1}` }))
  const { taskId } = await call(server, '/api/agent/start', { goal: `Page through ${steps} pages of products`, clientId, script })
  const task: LongTask = { taskId, reports: 0, screenshots: 0, screenshotBytes: 0 }
  for (;;) {
    const next = await call(server, '/api/agent/next', { clientId, taskId, waitMs: 5000 })
    if (!next.action) {
      if (TERMINAL.has(next.status)) break
      continue
    }
    const artifacts = screenshots(task.reports)
    for (const a of artifacts) task.screenshotBytes += Buffer.byteLength(a.data, 'base64')
    const reply = await call(server, '/api/agent/report', { taskId, actionId: next.action.actionId, observation: observation(task.reports, artifacts) })
    if (!reply.accepted) throw new Error(`report ${task.reports} was not accepted: ${JSON.stringify(reply)}`)
    task.reports += 1
    task.screenshots += artifacts.length
  }
  const status = await server.api('GET', `/api/agent/status?taskId=${taskId}`)
  if (status.body?.data?.task?.status !== 'SUCCEEDED') throw new Error(`the long task ended ${status.body?.data?.task?.status}`)
  return task
}

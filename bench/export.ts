/**
 * Export at scale: long tasks recorded through the built server (real engine, audit log and artifact store,
 * two Chromium JPEGs per step), then exported through GET /api/audit/:taskId/export and streamed to disk.
 * Each export runs on a freshly started server process whose memory is read from /proc, beside `zip -r` of the
 * same folder (speed) and the server's idle RSS (memory). The peak for the long task over the peak for the
 * short one shows whether memory grows with the task. `node --import tsx bench/export.ts` (needs `npm run build`).
 */
import { spawnSync } from 'node:child_process'
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { verifyAuditPath } from '../server/lib/audit/verify-export'
import { recordLongTask, varyJpeg, type LongTask } from '../test/support/long-task'
import { startServer, type TestServer } from '../test/support/server'
import { readCpuMs, readMemory, resetPeak, sampleMemory } from './proc-stats'
import { captureScreenshots } from './screenshots'
import { table } from './stats'
import { printSummary, summaryRow } from './summary'

const QUICK = process.env.BENCH_QUICK === '1'
const [SHORT, LONG] = QUICK ? [50, 200] : [250, 1000]
const REPEATS = QUICK ? 1 : 2

interface ExportRun {
  seconds: number
  /** The server's CPU time for the export: steadier than wall time on a busy machine. */
  cpuSeconds: number
  zipBytes: number
  idleKb: number
  peakKb: number
}

interface Measured {
  steps: number
  task: LongTask
  recordSeconds: number
  events: number
  verdict: string
  export: ExportRun
  zipCli: { seconds: number; cpuSeconds: number; bytes: number }
}

const MB = 1e6
const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function download(server: TestServer, taskId: string, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/api/audit/${taskId}/export`, { headers: { authorization: `Bearer ${server.token}` } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`export answered ${res.statusCode}`))
      pipeline(res, createWriteStream(path)).then(resolve, reject)
    })
    req.on('error', reject).end()
  })
}

/**
 * One export on a fresh server process, so its peak RSS belongs to this export alone. A two-step task is
 * exported first so that loading the replay renderer and compiling the export path are not counted as its cost.
 */
async function exportOnce(server: TestServer, taskId: string, warmUpTaskId: string, path: string): Promise<ExportRun> {
  await server.restart()
  const pid = server.pid!
  await download(server, warmUpTaskId, path)
  await sleep(300)
  const idleKb = readMemory(pid).rssKb
  resetPeak(pid)
  const sampler = sampleMemory(pid)
  const cpu0 = readCpuMs(pid)
  const t0 = performance.now()
  await download(server, taskId, path)
  const seconds = (performance.now() - t0) / 1000
  const cpuSeconds = (readCpuMs(pid) - cpu0) / 1000
  const { peakKb } = sampler.stop()
  return { seconds, cpuSeconds, zipBytes: statSync(path).size, idleKb, peakKb }
}

/** `zip -r` of the task's folder, storing images as they are (as the export does) and deflating the rest. */
function zipCli(server: TestServer, taskId: string, path: string) {
  rmSync(path, { force: true })
  const t0 = performance.now()
  // bash's `time` reports the child's user and system time, which spawnSync does not.
  const run = spawnSync('bash', ['-c', `TIMEFORMAT='%U %S'; time zip -r -q -n .jpg:.png:.webp "$0" events.jsonl artifacts`, path], {
    cwd: join(server.auditDir, taskId),
    encoding: 'utf8',
  })
  const seconds = (performance.now() - t0) / 1000
  if (run.status !== 0) throw new Error(`zip failed: ${run.stderr}`)
  const [user, system] = run.stderr.trim().split(/\s+/).slice(-2).map(Number)
  return { seconds, cpuSeconds: user! + system!, bytes: statSync(path).size }
}

const recordShopTask = (server: TestServer, steps: number, shots: Buffer[]) =>
  recordLongTask(server, {
    steps,
    screenshots: (step) =>
      (['before', 'after'] as const).map((label, k) => ({
        label,
        contentType: 'image/jpeg' as const,
        data: varyJpeg(shots[(step * 2 + k) % shots.length]!, `step ${step} ${label}`).toString('base64'),
      })),
  })

async function measure(server: TestServer, steps: number, shots: Buffer[], warmUpTaskId: string, out: string): Promise<Measured> {
  const t0 = performance.now()
  const task = await recordShopTask(server, steps, shots)
  const recordSeconds = (performance.now() - t0) / 1000
  const path = join(out, `export-${steps}.zip`)
  const runs: ExportRun[] = []
  for (let i = 0; i < REPEATS; i++) runs.push(await exportOnce(server, task.taskId, warmUpTaskId, path))
  const check = await verifyAuditPath(path)
  if (!check.ok) throw new Error(`the export of ${steps} steps does not verify: ${check.verdict}`)
  const cli = Array.from({ length: REPEATS }, () => zipCli(server, task.taskId, join(out, `zip-${steps}.zip`)))
  return {
    steps,
    task,
    recordSeconds,
    events: check.chain?.count ?? 0,
    verdict: check.verdict,
    // The fastest run for speed, the highest peak for memory: the conservative figure for each.
    export: { ...runs.reduce((a, b) => (b.seconds < a.seconds ? b : a)), cpuSeconds: Math.min(...runs.map((r) => r.cpuSeconds)), peakKb: Math.max(...runs.map((r) => r.peakKb)), idleKb: Math.max(...runs.map((r) => r.idleKb)) },
    zipCli: { ...cli.reduce((a, b) => (b.seconds < a.seconds ? b : a)), cpuSeconds: Math.min(...cli.map((c) => c.cpuSeconds)) },
  }
}

const shots = await captureScreenshots()
const out = mkdtempSync(join(tmpdir(), 'tandem-bench-export-'))
const server = await startServer()
let results: Measured[]
try {
  const warmUp = await recordShopTask(server, 2, shots)
  results = [await measure(server, SHORT, shots, warmUp.taskId, out), await measure(server, LONG, shots, warmUp.taskId, out)]
} finally {
  await server.close()
  rmSync(out, { recursive: true, force: true })
}

const [short, long] = results
const rate = (bytes: number, seconds: number) => bytes / MB / seconds
const meanShot = long.task.screenshotBytes / long.task.screenshots / 1000
printSummary([
  summaryRow(
    `export, ${LONG.toLocaleString('en')} steps / ${long.task.screenshots.toLocaleString('en')} screenshots (time)`,
    `${long.export.seconds.toFixed(2)} s · ${rate(long.export.zipBytes, long.export.seconds).toFixed(0)} MB/s`,
    `zip -r ${long.zipCli.seconds.toFixed(2)} s · ${rate(long.zipCli.bytes, long.zipCli.seconds).toFixed(0)} MB/s`,
    long.export.seconds / long.zipCli.seconds,
    `over HTTP to disk, ${(long.export.zipBytes / MB).toFixed(0)} MB zip with replay.html; lower is better`,
  ),
  summaryRow(
    `export, ${LONG.toLocaleString('en')} steps (CPU time)`,
    `${long.export.cpuSeconds.toFixed(2)} s server CPU`,
    `${long.zipCli.cpuSeconds.toFixed(2)} s zip -r CPU`,
    long.export.cpuSeconds / long.zipCli.cpuSeconds,
    'steadier than wall time on a shared machine; the export also hashes every file and writes replay.html; lower is better',
  ),
  summaryRow(
    `export, ${LONG.toLocaleString('en')} steps: server peak RSS`,
    mib(long.export.peakKb),
    `idle ${mib(long.export.idleKb)}`,
    long.export.peakKb / long.export.idleKb,
    `the same process just before the export; VmHWM and 10 ms VmRSS samples`,
  ),
  summaryRow(
    `export peak RSS, ${LONG.toLocaleString('en')} vs ${SHORT.toLocaleString('en')} steps`,
    mib(long.export.peakKb),
    mib(short.export.peakKb),
    long.export.peakKb / short.export.peakKb,
    `bounded memory: ≈1× for a ${(long.export.zipBytes / short.export.zipBytes).toFixed(1)}× larger zip`,
  ),
])

const rows = results.map((r) => [
  r.steps.toLocaleString('en'),
  r.events.toLocaleString('en'),
  r.task.screenshots.toLocaleString('en'),
  `${(r.export.zipBytes / MB).toFixed(1)} MB`,
  `${r.export.seconds.toFixed(2)} s`,
  `${rate(r.export.zipBytes, r.export.seconds).toFixed(0)} MB/s`,
  `${r.export.cpuSeconds.toFixed(2)} s`,
  `${r.zipCli.seconds.toFixed(2)} s`,
  `${rate(r.zipCli.bytes, r.zipCli.seconds).toFixed(0)} MB/s`,
  `${r.zipCli.cpuSeconds.toFixed(2)} s`,
  mib(r.export.idleKb),
  mib(r.export.peakKb),
  `${(r.steps / r.recordSeconds).toFixed(0)} steps/s`,
])
console.log(`## Audit export at scale

Script tasks recorded through the built server (engine, audit log, artifact store), each step reported with two
Chromium JPEG screenshots (quality 70, 1280×800, mean ${meanShot.toFixed(0)} KB). Each export ran on a freshly
started server process (after exporting a two-step task, so the first export's one-off loading is not counted)
and was streamed over HTTP to a file; CPU is the server's user + system time from /proc; best of ${REPEATS} for time, highest of ${REPEATS} for
peak RSS. \`zip -r\` stores the same images and deflates events.jsonl (it writes no replay.html or manifest).
Every export verified: ${results.map((r) => r.verdict).join('; ')}.

${table(['steps', 'events', 'screenshots', 'zip', 'export', 'export rate', 'export CPU', 'zip -r', 'zip -r rate', 'zip -r CPU', 'idle RSS', 'peak RSS', 'recording'], rows)}`)

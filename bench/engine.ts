/**
 * Engine throughput: concurrent script tasks cycling next/report against the built server, beside a trivial
 * authenticated route measured in the same run (the ratio is the engine's own cost); once with tasks in files,
 * once in Redis (a redis-server of its own), so the two stores compare on the same machine in the same run.
 */
import type { ScriptStep } from '#protocol'
import { startRedis } from '../test/support/redis'
import { startServer, type TestServer } from '../test/support/server'
import { percentile, table } from './stats'
import { summaryRow, type SummaryRow } from './summary'

const TASKS = Number(process.env.BENCH_TASKS ?? 50)
const STEPS = Number(process.env.BENCH_STEPS ?? 20)

const observation = { status: 'done', url: 'http://127.0.0.1:9/bench', title: 'Bench', elementTree: '[0]<button>Next</button>', errors: [] }

async function timed<T>(samples: number[], fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now()
  const value = await fn()
  samples.push(performance.now() - t0)
  return value
}

async function baseline(server: TestServer, requests: number) {
  const samples: number[] = []
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: TASKS }, async () => {
      for (let i = 0; i < requests / TASKS; i++) await timed(samples, () => server.api('GET', '/api/info'))
    }),
  )
  return { samples, seconds: (performance.now() - t0) / 1000 }
}

async function engine(server: TestServer) {
  const script: ScriptStep[] = Array.from({ length: STEPS }, (_, i) => ({ type: 'click', text: `Next ${i}` }))
  const next: number[] = []
  const report: number[] = []
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: TASKS }, async (_, n) => {
      const clientId = `bench_${n}`
      const started = await server.api('POST', '/api/agent/start', { goal: 'bench', clientId, script })
      const taskId = started.body.data.taskId
      for (let step = 0; step < STEPS; step++) {
        const reply = await timed(next, () => server.api('POST', '/api/agent/next', { clientId, taskId, waitMs: 5000 }))
        const action = reply.body.data.action
        if (!action) throw new Error(`no action: ${JSON.stringify(reply.body)}`)
        await timed(report, () => server.api('POST', '/api/agent/report', { taskId, actionId: action.actionId, observation }))
      }
    }),
  )
  return { next, report, seconds: (performance.now() - t0) / 1000 }
}

/** One server over one store (`store` names it in the rows): its rows, and the figures the comparison needs. */
async function benchStore(options: Parameters<typeof startServer>[0], store: string) {
  const server = await startServer(options)
  try {
    const steps = TASKS * STEPS
    const base = await baseline(server, steps * 2)
    const run = await engine(server)
    const stepLatency = run.next.map((n, i) => n + (run.report[i] ?? 0))
    const rows = [
      ['trivial authenticated route (GET /api/info)', (base.samples.length / base.seconds).toFixed(0) + ' req/s', percentile(base.samples, 50), percentile(base.samples, 99)],
      ['engine next', '', percentile(run.next, 50), percentile(run.next, 99)],
      ['engine report', '', percentile(run.report, 50), percentile(run.report, 99)],
      ['engine step (next + report)', (steps / run.seconds).toFixed(0) + ' steps/s', percentile(stepLatency, 50), percentile(stepLatency, 99)],
    ].map(([name, rate, p50, p99]) => [store, name, rate, `${Number(p50).toFixed(1)} ms`, `${Number(p99).toFixed(1)} ms`])
    const ratio = percentile(run.next, 50) / percentile(base.samples, 50)
    const pairs = base.samples.length / base.seconds / 2
    const summary: SummaryRow[] = [
      summaryRow(
        `engine throughput (${store}, ${TASKS} tasks × ${STEPS} steps)`,
        `${(steps / run.seconds).toFixed(0)} steps/s`,
        `${pairs.toFixed(0)} pairs/s of GET /api/info`,
        steps / run.seconds / pairs,
        'a step is two requests (next + report); higher is better',
      ),
      summaryRow(`engine next p50 (${store})`, `${percentile(run.next, 50).toFixed(1)} ms`, `${percentile(base.samples, 50).toFixed(1)} ms GET /api/info`, ratio, 'same concurrency; lower is better'),
    ]
    return { rows, summary, stepsPerSecond: steps / run.seconds, ratio }
  } finally {
    await server.close()
  }
}

export async function benchEngine() {
  const fs = await benchStore({}, 'fs')
  const redisServer = await startRedis()
  let redis: Awaited<ReturnType<typeof benchStore>>
  try {
    redis = await benchStore({ redisUrl: redisServer.url }, 'redis')
  } finally {
    await redisServer.stop()
  }
  const storeRatio = redis.stepsPerSecond / fs.stepsPerSecond
  return {
    summary: [
      ...fs.summary,
      ...redis.summary,
      summaryRow('engine throughput, Redis vs fs', `${redis.stepsPerSecond.toFixed(0)} steps/s`, `${fs.stepsPerSecond.toFixed(0)} steps/s on fs`, storeRatio, 'same workload, same run; higher is better'),
    ],
    title: `Engine throughput (${TASKS} concurrent script tasks × ${STEPS} steps), tasks in files and in Redis`,
    markdown:
      table(['store', 'measure', 'rate', 'p50', 'p99'], [...fs.rows, ...redis.rows]) +
      `\n\nnext p50 / trivial route p50 = ${fs.ratio.toFixed(2)}× on fs, ${redis.ratio.toFixed(2)}× on Redis` +
      `\n\nRedis steps/s / fs steps/s = ${storeRatio.toFixed(2)}× (higher is better for Redis)`,
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchEngine()
  console.log(`## ${result.title}\n\n${result.markdown}`)
}

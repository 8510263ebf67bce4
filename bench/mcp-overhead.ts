/**
 * MCP tool-call overhead: the same question — a task's status — asked N times through /mcp (the SDK's own client
 * calling `task_status` over Streamable HTTP) and through GET /api/agent/status, on one built server in one run,
 * in alternating rounds so that drift on a busy machine falls on both alike. `node --import tsx bench/mcp-overhead.ts`
 * (needs `npm run build`); `BENCH_QUICK=1` for fewer calls.
 */
import { connectMcp } from '../test/support/mcp-client'
import { startServer } from '../test/support/server'
import { percentile, table } from './stats'
import { printSummary, summaryRow } from './summary'

const QUICK = process.env.BENCH_QUICK === '1'
const ROUNDS = QUICK ? 4 : 10
const PER_ROUND = QUICK ? 50 : 100
const WARMUP = 30

const server = await startServer()
try {
  const started = await server.api('POST', '/api/agent/start', { goal: 'bench', clientId: 'bench_client', script: [{ type: 'navigate', url: 'http://127.0.0.1:9/' }] })
  const taskId: string = started.body.data.taskId
  const mcp = await connectMcp(server.url, server.token, 'tandem-bench', '1.0.0')

  const viaApi = async () => {
    const res = await fetch(`${server.url}/api/agent/status?taskId=${taskId}`, { headers: { authorization: `Bearer ${server.token}` } })
    const body = (await res.json()) as { ok: boolean }
    if (!body.ok) throw new Error('status failed')
  }
  const viaMcp = async () => {
    const answer = await mcp.call('task_status', { taskId })
    if (answer.isError) throw new Error(answer.text)
  }

  const time = async (fn: () => Promise<void>, n: number, into: number[]) => {
    for (let i = 0; i < n; i++) {
      const t0 = performance.now()
      await fn()
      into.push(performance.now() - t0)
    }
  }
  await time(viaApi, WARMUP, [])
  await time(viaMcp, WARMUP, [])
  const api: number[] = []
  const tool: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    // Which goes first alternates, so neither always meets a warmer or a busier moment.
    if (round % 2) {
      await time(viaMcp, PER_ROUND, tool)
      await time(viaApi, PER_ROUND, api)
    } else {
      await time(viaApi, PER_ROUND, api)
      await time(viaMcp, PER_ROUND, tool)
    }
  }
  await mcp.close()

  const ms = (v: number) => v.toFixed(2)
  const row = (name: string, s: number[]) => [name, s.length, ms(percentile(s, 50)), ms(percentile(s, 95)), ms(s.reduce((a, b) => a + b, 0) / s.length)]
  const p50 = { api: percentile(api, 50), mcp: percentile(tool, 50) }
  console.log('## MCP tool-call overhead\n')
  console.log(`The same status read, ${ROUNDS} alternating rounds of ${PER_ROUND} calls each way, on one built server (ms per call):\n`)
  console.log(table(['path', 'calls', 'p50', 'p95', 'mean'], [row('GET /api/agent/status', api), row('MCP task_status (/mcp, SDK client)', tool)]))
  console.log(`\nMCP over the HTTP API at p50: ${(p50.mcp / p50.api).toFixed(2)}× (+${ms(p50.mcp - p50.api)} ms a call).`)
  printSummary([
    summaryRow('MCP task_status p50', `${ms(p50.mcp)} ms`, `${ms(p50.api)} ms (GET /api/agent/status)`, p50.mcp / p50.api, 'lower is better; the cost of JSON-RPC and the SDK per tool call'),
  ])
} finally {
  await server.close()
}

/**
 * `npm run bench`: every benchmark in one run, summarised in one table (each figure beside a baseline measured
 * in the same run) followed by each benchmark's details; printed and written to bench/results/latest.md.
 * `BENCH_QUICK=1 npm run bench` is a smoke run: fewer tasks, rounds and steps, same table.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { summaryTable, takeSummary, type SummaryRow } from './summary'

const QUICK = process.env.BENCH_QUICK === '1'
if (QUICK) {
  // Read by the benchmarks as they load, so they must be set before any of them is imported or spawned.
  process.env.BENCH_TASKS ??= '10'
  process.env.BENCH_STEPS ??= '10'
  process.env.BENCH_RUNS ??= '3'
  process.env.STEP_OVERHEAD_ROUNDS ??= '1'
}
const { benchEngine } = await import('./engine')

const started = performance.now()
const rows: SummaryRow[] = []
const sections: string[] = []
const section = (markdown: string) => {
  sections.push(markdown)
  console.log(markdown + '\n')
}

const engine = await benchEngine()
rows.push(...engine.summary)
section(`## ${engine.title}\n\n${engine.markdown}`)

// Benchmarks that drive a browser or a server of their own run as their own processes and print markdown,
// with their summary rows on one marked line.
for (const script of ['bench/skills.ts', 'bench/prompt-size.ts', 'bench/perception.ts', 'bench/step-overhead.ts', 'bench/export.ts', 'bench/mcp-overhead.ts']) {
  if (!existsSync(script)) continue
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 })
  const { rows: summary, markdown } = takeSummary(run.stdout ?? '')
  rows.push(...summary)
  section(run.status === 0 ? markdown : `## ${script}\n\nfailed with exit code ${run.status}\n\n${markdown}`)
}

const minutes = (performance.now() - started) / 60_000
const header =
  `# Tandem benchmarks${QUICK ? ' (quick smoke run)' : ''}\n\n` +
  `${new Date().toISOString()} · Node ${process.version} · ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'} · ` +
  `load average ${loadavg()[0]!.toFixed(1)} at the end · ${minutes.toFixed(1)} min\n\n` +
  'Each ratio is the value over a baseline measured in the same run, on the same machine; the note says which way is better.'
const report = [header, summaryTable(rows), ...sections].join('\n\n') + '\n'
console.log(`${header}\n\n${summaryTable(rows)}\n`)
mkdirSync('bench/results', { recursive: true })
writeFileSync(QUICK ? 'bench/results/quick.md' : 'bench/results/latest.md', report)
console.log(`written to bench/results/${QUICK ? 'quick' : 'latest'}.md`)

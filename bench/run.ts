/** `npm run bench`: every benchmark in one run, printed as one report and written to bench/results/latest.md. */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { benchEngine } from './engine'

const sections: string[] = []
const header = `# Tandem benchmarks\n\n${new Date().toISOString()} · Node ${process.version} · ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}\n`

const engine = await benchEngine()
sections.push(`## ${engine.title}\n\n${engine.markdown}`)
console.log(sections.at(-1) + '\n')

// Benchmarks that drive a browser run as their own processes and print their own markdown.
for (const script of ['bench/skills.ts', 'bench/prompt-size.ts', 'bench/perception.ts', 'bench/step-overhead.ts']) {
  if (!existsSync(script)) continue
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  const out = run.status === 0 ? run.stdout.trim() : `## ${script}\n\nfailed with exit code ${run.status}\n\n${run.stdout}`
  sections.push(out)
  console.log(out + '\n')
}

mkdirSync('bench/results', { recursive: true })
writeFileSync('bench/results/latest.md', [header, ...sections].join('\n\n') + '\n')
console.log('written to bench/results/latest.md')

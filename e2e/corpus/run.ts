/**
 * npm run corpus [-- --mode script|llm] [--only <id part>] [--approve] [--fallback] [--timeout <ms>]
 * --fallback: every case with the debugger refused (the barrier's fallback, where the label rules ask first).
 * Writes e2e/output/corpus.md and corpus.json (corpus-approved.* with --approve).
 */
import { parseArgs } from 'node:util'
import { buildTandemIfMissing } from './build'
import { CASES } from './cases'
import { runCorpus } from './corpus-run'
import type { Mode } from './run-case'

const { values } = parseArgs({ options: { mode: { type: 'string' }, only: { type: 'string' }, approve: { type: 'boolean' }, fallback: { type: 'boolean' }, timeout: { type: 'string' }, quiet: { type: 'boolean' } } })
buildTandemIfMissing()
const modes: Mode[] = values.mode ? [values.mode as Mode] : ['script', 'llm']
const cases = values.only ? CASES.filter((c) => c.id.includes(values.only!)) : CASES
const { summary, seconds } = await runCorpus({
  ...(values.fallback ? { cases: [], modes: [], fallback: { cases, modes } } : { cases, modes }),
  approve: values.approve,
  timeoutMs: values.timeout ? Number(values.timeout) : undefined,
  log: values.quiet ? undefined : (line) => console.log(line),
})
console.log(`\n${cases.length} pages × ${modes.length} modes in ${seconds.toFixed(0)} s`)
console.log(`irreversible: ${summary.irreversible.asked}/${summary.irreversible.runs} asked, ${summary.irreversible.unapproved} reached the site unapproved`)
console.log(`harmless: ${summary.harmless.asked}/${summary.harmless.runs} asked (${(summary.harmless.rate * 100).toFixed(0)}%), ${summary.harmless.asks} questions over ${summary.harmless.steps} steps (${summary.harmless.per100.toFixed(1)} per 100)`)
console.log(`report: e2e/output/${values.approve ? 'corpus-approved' : values.fallback ? 'corpus-fallback' : 'corpus'}.md`)

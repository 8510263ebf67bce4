import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { RunRecord } from './run-one'
import { faultName } from './schedule'

/** The statuses a fault of this kind may end a task in: the others must recover all the way to success. */
const MAY_FAIL = new Set(['tab-closed', 'tab-navigated'])

export const unrecovered = (r: RunRecord) => !MAY_FAIL.has(r.plan.kind) && r.verdict.status !== 'SUCCEEDED'

function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

const ms = (value: number | null) => (value === null ? '–' : `${(value / 1000).toFixed(2)} s`)

function row(label: string, runs: RunRecord[]): string {
  const times = runs.map((r) => r.verdict.recoveryMs).filter((t): t is number => t !== null).sort((a, b) => a - b)
  const count = (f: (r: RunRecord) => boolean) => runs.filter(f).length
  const durations = runs.map((r) => r.ms).sort((a, b) => a - b)
  return `| ${label} | ${runs.length} | ${count((r) => r.verdict.status === 'SUCCEEDED')} | ${count((r) => r.verdict.status === 'FAILED' || r.verdict.status === 'CANCELED')} | ${runs.reduce((n, r) => n + r.verdict.doubles.length, 0)} | ${runs.reduce((n, r) => n + r.verdict.lost.length, 0)} | ${count((r) => r.verdict.status === 'STUCK')} | ${runs.reduce((n, r) => n + r.verdict.audit.length + r.verdict.replies.length, 0)} | ${ms(percentile(times, 50))} | ${ms(percentile(times, 95))} | ${ms(times.at(-1) ?? null)} | ${ms(percentile(durations, 50))} |`
}

/** The figures table: per fault kind and phase (and call, for a hung one), and in total. */
export function figures(records: RunRecord[], schedule: { seed: number; cover: boolean; tail: number }, elapsedMs: number): string {
  const { seed } = schedule
  const head = [
    '| fault | runs | succeeded | failed | executed twice | audit events lost | stuck | other violations | recovery p50 | p95 | max | run p50 |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ]
  const groups = new Map<string, RunRecord[]>()
  for (const r of records) {
    const keys = new Set([r.plan.kind, `${r.plan.kind} · ${r.plan.phase}`, faultName(r.plan)])
    for (const key of keys) groups.set(key, [...(groups.get(key) ?? []), r])
  }
  const keys = [...groups.keys()].sort()
  const problems = records.flatMap((r) => {
    const v = r.verdict
    const all = [...v.doubles, ...v.lost, ...v.audit, ...v.replies, ...(r.misplaced ? [`fault not placed: ${r.misplaced}`] : []), ...(unrecovered(r) ? [`ended ${v.status}`] : [])]
    return all.map((p) => `- run ${r.plan.index} (${faultName(r.plan)} @${r.plan.seq}, task ${r.taskId}): ${p}`)
  })
  const landed = records.filter((r) => r.landed && r.landed !== r.plan.phase).map((r) => `run ${r.plan.index} (${r.landed})`)
  const hung = records.filter((r) => r.plan.kind === 'hung')
  const gaveUp = hung.map((r) => r.gaveUpMs).filter((t): t is number => t !== undefined).sort((a, b) => a - b)
  const hungLine = !hung.length
    ? []
    : [
        `Hung calls: the extension gave up by itself on ${gaveUp.length} of ${hung.length} (after ${ms(gaveUp[0] ?? null)} to ${ms(gaveUp.at(-1) ?? null)}), ` +
          'then tried again; nobody woke it.',
        '',
      ]
  return [
    `# Fault injection`,
    '',
    `${schedule.cover ? 'The cover (every kind × phase × seq that matters, once) and a' : 'A'} random tail of ${schedule.tail} runs from seed ${seed}`,
    `(TANDEM_FAULT_SEED=${seed} replays it): ${records.length} runs in ${(elapsedMs / 1000).toFixed(0)} s. Recovery: from the fault to the`,
    'next progress (a report the server took in, or the task finished); for the outage, from the end of the outage, with',
    'nobody waking the extension. A task closed or moved by the person may end FAILED; every other fault must end SUCCEEDED.',
    '',
    ...head,
    ...keys.map((k) => row(k, groups.get(k)!)),
    row('**all**', records),
    '',
    landed.length ? `Worker stops aimed at "locked" that landed later: ${landed.join(', ')}.` : 'Every worker stop landed in the phase it aimed at.',
    '',
    ...hungLine,
    problems.length ? `## Violations\n\n${problems.join('\n')}` : 'No violations.',
    '',
  ].join('\n')
}

export function writeFigures(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}

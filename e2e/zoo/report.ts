import type { BaselineResult } from './baseline'
import type { TandemResult } from './run-task'
import type { Task } from './types'

export interface ZooRow {
  task: Task
  baseline: BaselineResult
  tandem?: TandemResult
}

export interface ZooSummary {
  tasks: number
  baseline: number
  pass: number
  secondLook: number
  fail: number
  /** Tasks the baseline solves and Tandem does not solve cleanly: the issue's acceptance list. */
  owed: string[]
  /** Tasks Tandem ended SUCCEEDED while the site's log (or the step's own observation) says otherwise. */
  untrue: string[]
  /** Confirmations asked and steps run, beyond each task's own goal write (the one question a task should cost). */
  harmless: { asks: number; steps: number; per100: number }
}

/** A task whose goal write reached the site cost that one question; every other ask was about a harmless step. */
function harmlessShare(r: ZooRow): { asks: number; steps: number } {
  const t = r.tandem
  if (!t) return { asks: 0, steps: 0 }
  const goalWrite = t.reached && !r.task.expect.request.startsWith('GET ') ? 1 : 0
  return { asks: Math.max(0, t.approved - goalWrite), steps: Math.max(0, t.steps.length - goalWrite) }
}

export function summarise(rows: ZooRow[]): ZooSummary {
  const n = (f: (r: ZooRow) => boolean) => rows.filter(f).length
  return {
    tasks: rows.length,
    baseline: n((r) => r.baseline.ok),
    pass: n((r) => r.tandem?.outcome === 'pass'),
    secondLook: n((r) => r.tandem?.outcome === 'second-look'),
    fail: n((r) => r.tandem?.outcome === 'fail'),
    owed: rows.filter((r) => r.baseline.ok && r.tandem?.outcome !== 'pass').map((r) => r.task.id),
    untrue: rows.filter((r) => r.tandem?.untrue).map((r) => r.task.id),
    harmless: (() => {
      const shares = rows.map(harmlessShare)
      const asks = shares.reduce((sum, x) => sum + x.asks, 0)
      const steps = shares.reduce((sum, x) => sum + x.steps, 0)
      return { asks, steps, per100: steps ? (asks * 100) / steps : 0 }
    })(),
  }
}

const mark = { pass: '✅ pass', 'second-look': '🟡 second look', fail: '❌ fail' }

/** The zoo's report: totals, by family, one row per task, then what each task that is not a clean pass needed. */
export function markdown(rows: ZooRow[], meta: { seconds: number }): string {
  const s = summarise(rows)
  const families = [...new Set(rows.map((r) => r.task.family))]
  const byFamily = families.map((f) => {
    const list = rows.filter((r) => r.task.family === f)
    const n = (o: string) => list.filter((r) => r.tandem?.outcome === o).length
    return `| ${f} | ${list.length} | ${list.filter((r) => r.baseline.ok).length} | ${n('pass')} | ${n('second-look')} | ${n('fail')} |`
  })
  const table = rows.map((r) =>
    `| \`${r.task.id}\` | ${r.task.family} | ${r.task.goal} | ${r.baseline.ok ? '✅' : `❌ ${r.baseline.why}`} | ${r.tandem ? mark[r.tandem.outcome] : '—'} | ${r.tandem ? r.tandem.approved : '—'} | ${r.task.needs.join(', ') || '—'} |`)
  const owed = rows.filter((r) => r.baseline.ok && r.tandem && r.tandem.outcome !== 'pass').map((r) => {
    const t = r.tandem!
    return `- \`${r.task.id}\` (${mark[t.outcome]}; needs ${r.task.needs.join(', ') || 'nothing new'}): ${t.outcome === 'fail' ? `${t.failure || t.why}; verdict: ${t.why}` : t.looks.join(' · ')}; steps ${t.steps.join(' ')}`
  })
  const untrue = rows.filter((r) => r.tandem?.untrue).map((r) => `- \`${r.task.id}\`: ${r.tandem!.untrue}; steps ${r.tandem!.steps.join(' ')}`)
  return [
    '# Component-library zoo: Tandem vs plain Playwright',
    '',
    `${s.tasks} tasks in ${meta.seconds.toFixed(0)} s. Verdicts from the zoo site's request log (the request each task's goal sends, with its values), never from what either side reports.`,
    '',
    `- Baseline (plain Playwright locators): **${s.baseline}/${s.tasks}**`,
    `- Tandem (production extension, scripted model naming targets by their words): **${s.pass + s.secondLook}/${s.tasks} reached the goal, ${s.pass} with no second look, ${s.secondLook} needed a second look, ${s.fail} failed**`,
    `- Questions beyond each task's own goal write: **${s.harmless.asks} over ${s.harmless.steps} steps (${s.harmless.per100.toFixed(1)} per 100)**`,
    `- Tandem said SUCCEEDED while the site's log says otherwise: **${s.untrue.length}**${s.untrue.length ? ` (${s.untrue.join(', ')})` : ''}`,
    '',
    '| family | tasks | baseline | Tandem pass | second look | fail |',
    '|---|---|---|---|---|---|',
    ...byFamily,
    '',
    '| task | family | goal | baseline | Tandem | asked | needs |',
    '|---|---|---|---|---|---|---|',
    ...table,
    '',
    `## Solved by the baseline, not cleanly by Tandem (${s.owed.length})`,
    '',
    ...owed,
    '',
    ...(untrue.length ? [`## Said SUCCEEDED, the site disagrees (${untrue.length})`, '', ...untrue, ''] : []),
  ].join('\n')
}

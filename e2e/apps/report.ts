import type { BaselineResult } from '../support/plain-baseline'
import type { TandemResult } from '../support/plan-run'
import type { AppTask } from './types'

/** Tandem's result on one task, with the corpus's own outcome: a plan step Tandem has no action for is "unsupported". */
export interface AppsTandem extends Omit<TandemResult, 'outcome'> {
  outcome: TandemResult['outcome'] | 'unsupported'
  /** Why it did not pass, in one line: the first failing step and its error code, or the tree line the model could not find. */
  cause: string
  /** Writes the task's page sent that reached the site (the one a goal like "submit the review" needs). */
  writes: number
}

/** A task whose page sent its write cost that one question; every other question was needless. */
export const needlessAsks = (t: AppsTandem | undefined): number => (t ? Math.max(0, t.approved - Math.min(1, t.writes)) : 0)

export interface AppsRow {
  task: AppTask
  baseline: BaselineResult
  tandem?: AppsTandem
}

export interface Totals {
  tasks: number
  baseline: number
  pass: number
  secondLook: number
  fail: number
  unsupported: number
  /** Confirmations the person was asked over all the tasks. */
  asked: number
  /** Of those, the ones beyond each task's own write. */
  needless: number
}

export interface AppsSummary extends Totals {
  /** Per app (framework or jQuery-era page), in the corpus's order. */
  byApp: Record<string, Totals>
  /** Tasks the baseline solves and Tandem does not solve cleanly. */
  owed: string[]
  /** Tasks Tandem ended SUCCEEDED while the page's state says otherwise. */
  untrue: string[]
  /** Tasks asked about more than their own write. */
  overAsked: string[]
  /**
   * Tasks with a step reported ACTION_NO_EFFECT: each plan is one the baseline's locators carry out, so on these
   * pages a step that found nothing changed is a false report.
   */
  noEffect: string[]
}

function totals(rows: AppsRow[]): Totals {
  const n = (o: string) => rows.filter((r) => r.tandem?.outcome === o).length
  return {
    tasks: rows.length,
    baseline: rows.filter((r) => r.baseline.ok).length,
    pass: n('pass'),
    secondLook: n('second-look'),
    fail: n('fail'),
    unsupported: n('unsupported'),
    asked: rows.reduce((sum, r) => sum + (r.tandem?.approved ?? 0), 0),
    needless: rows.reduce((sum, r) => sum + needlessAsks(r.tandem), 0),
  }
}

export function summarise(rows: AppsRow[]): AppsSummary {
  const apps = [...new Set(rows.map((r) => r.task.app))]
  return {
    ...totals(rows),
    byApp: Object.fromEntries(apps.map((a) => [a, totals(rows.filter((r) => r.task.app === a))])),
    owed: rows.filter((r) => r.baseline.ok && r.tandem && r.tandem.outcome !== 'pass').map((r) => r.task.id),
    untrue: rows.filter((r) => r.tandem?.untrue).map((r) => r.task.id),
    overAsked: rows.filter((r) => needlessAsks(r.tandem) > 0).map((r) => r.task.id),
    noEffect: rows.filter((r) => r.tandem?.steps.some((step) => step.includes('ACTION_NO_EFFECT'))).map((r) => r.task.id),
  }
}

const MARK = { pass: '✅ pass', 'second-look': '🟡 second look', fail: '❌ fail', unsupported: '⛔ unsupported action' }
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** The corpus's report: totals, per app, one row per task, then why each task that is not a clean pass was not. */
export function markdown(rows: AppsRow[], meta: { seconds: number }): string {
  const s = summarise(rows)
  const byApp = Object.entries(s.byApp).map(([app, t]) => {
    const group = rows.find((r) => r.task.app === app)!.task.group
    return `| ${app} | ${group} | ${t.tasks} | ${t.baseline} | ${t.pass} | ${t.secondLook} | ${t.fail} | ${t.unsupported} | ${t.asked} (${t.needless}) |`
  })
  const table = rows.map((r) => {
    const t = r.tandem
    return `| \`${r.task.id}\` | ${r.task.app} | ${cell(r.task.goal)} | ${r.baseline.ok ? '✅' : `❌ ${cell(r.baseline.why)}`} | ${t ? MARK[t.outcome] : '—'} | ${t ? t.approved : '—'} | ${t && t.outcome !== 'pass' ? cell(t.cause) : ''} |`
  })
  const owed = rows.filter((r) => r.baseline.ok && r.tandem && r.tandem.outcome !== 'pass').map((r) => {
    const t = r.tandem!
    return `- \`${r.task.id}\` (${MARK[t.outcome]}): ${cell(t.cause)}; verdict: ${t.reached ? 'reached' : cell(t.why)}; steps ${t.steps.join(' ') || 'none'}`
  })
  const untrue = rows.filter((r) => r.tandem?.untrue).map((r) => `- \`${r.task.id}\`: ${cell(r.tandem!.untrue)}`)
  return [
    '# Real apps: Tandem vs plain Playwright',
    '',
    `${s.tasks} tasks in ${meta.seconds.toFixed(0)} s: TodoMVC in ${new Set(rows.filter((r) => r.task.group === 'todomvc').map((r) => r.task.app)).size} builds and ${new Set(rows.filter((r) => r.task.group === 'jquery-era').map((r) => r.task.page)).size} jQuery-era pages. Verdicts from the page's state (its localStorage and the list it draws, read by Playwright after the run), never from what either side reports.`,
    '',
    `- Baseline (plain Playwright locators): **${s.baseline}/${s.tasks}**`,
    `- Tandem (production extension, scripted model naming targets by their words): **${s.pass + s.secondLook}/${s.tasks} reached the goal, ${s.pass} with no second look, ${s.secondLook} needed a second look, ${s.fail} failed, ${s.unsupported} need an action Tandem does not have**`,
    `- Questions asked: **${s.asked}**, of them beyond each task's own write (the one a goal like "submit the review" needs): **${s.needless}**${s.overAsked.length ? ` (${s.overAsked.join(', ')})` : ''}`,
    `- Tandem said SUCCEEDED while the page's state says otherwise: **${s.untrue.length}**${s.untrue.length ? ` (${s.untrue.join(', ')})` : ''}`,
    `- Steps reported without effect (ACTION_NO_EFFECT) in a plan the baseline carries out: **${s.noEffect.length}**${s.noEffect.length ? ` (${s.noEffect.join(', ')})` : ''}`,
    '',
    '| app | kind | tasks | baseline | Tandem pass | second look | fail | unsupported | asked (needless) |',
    '|---|---|---|---|---|---|---|---|---|',
    ...byApp,
    '',
    '| task | app | goal | baseline | Tandem | asked | why not a pass |',
    '|---|---|---|---|---|---|---|',
    ...table,
    '',
    `## Solved by the baseline, not cleanly by Tandem (${s.owed.length})`,
    '',
    ...owed,
    '',
    ...(untrue.length ? [`## Said SUCCEEDED, the page's state disagrees (${untrue.length})`, '', ...untrue, ''] : []),
  ].join('\n')
}

import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { buildPages } from '../corpus/build'
import type { Harness } from '../support/harness'
import { planModel, type PlanModel } from '../support/plan-model'
import { runPlanned } from '../support/plan-run'
import { rigFor, type Rig } from '../support/rig'
import { classify } from './classify'
import { markdown, summarise, type AppsRow, type AppsSummary, type AppsTandem } from './report'
import { APPS_DIST, startAppsSite, storageKeyOf, type AppsSite } from './site'
import { judgeState, readState } from './state'
import type { AppTask } from './types'

export interface AppsOptions {
  tasks: AppTask[]
  /** Run Tandem too (false: the baseline only, which checks the apps themselves). */
  tandem?: boolean
  timeoutMs?: number
  outDir?: string
  log?: (line: string) => void
  /** A rig shared with another corpus. */
  rig?: Rig
}

/** Bundles the apps' scripts when they are missing or older than their sources. */
export const buildAppsPages = (force = false) => buildPages('e2e/apps/vite.config.ts', 'e2e/apps/app', APPS_DIST, force)

/** Handlers that run a moment after the last step (a debounced render, a save on blur) still count. */
const TAIL_MS = 300
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The tab a task ran in, by its start address (the hash a filter link sets may follow it). */
const tabOf = (pages: Page[], startUrl: string) => pages.filter((p) => p.url().startsWith(startUrl)).at(-1)

async function runTandem(h: Harness, site: AppsSite, model: PlanModel, task: AppTask, timeoutMs: number): Promise<AppsTandem> {
  const startUrl = site.startUrl(task)
  const from = site.log.length
  const result = await runPlanned(h, model, task, {
    startUrl,
    timeoutMs,
    reason: 'apps: the person asked for this',
    judge: async () => {
      await sleep(TAIL_MS)
      const tab = tabOf(h.ext.context.pages(), startUrl)
      if (!tab) return { ok: false, why: "the task's tab is gone" }
      return readState(tab, storageKeyOf(task)).then((s) => judgeState(task.expect, s), (e) => ({ ok: false, why: `the page's state could not be read: ${String(e).split('\n')[0]}` }))
    },
  })
  const writes = site.log.slice(from).filter((a) => a.taskId === task.id && a.method !== 'GET').length
  return classify(task, result, model.looks(task.id), writes)
}

/**
 * The whole measure: built apps on the apps site; each task done by plain Playwright in a plain Chromium, then by
 * Tandem (built server, scripted model, production extension in Chromium), one after another, each judged by the
 * page's state; the report written as it goes, so an interrupted run still leaves its figures.
 */
export async function runApps(options: AppsOptions): Promise<{ rows: AppsRow[]; summary: AppsSummary; seconds: number }> {
  const { tasks, tandem = true, timeoutMs = 30_000, outDir = 'e2e/output', log = () => undefined } = options
  buildAppsPages()
  const site = await startAppsSite(tasks)
  const { rig, done } = await rigFor(options.rig, { tandem })
  const model = planModel(tasks, () => site.url, 'a')
  rig.plan(model.rule)
  const baseline = rig.plain
  const h = tandem ? rig.h : undefined
  const began = Date.now()
  const rows: AppsRow[] = []
  mkdirSync(outDir, { recursive: true })
  const save = () => {
    const seconds = (Date.now() - began) / 1000
    const json = rows.map(({ task, ...r }) => ({ id: task.id, app: task.app, group: task.group, lang: task.lang, goal: task.goal, ...r }))
    writeFileSync(join(outDir, 'apps.json'), JSON.stringify({ summary: summarise(rows), seconds, rows: json }, null, 1))
    writeFileSync(join(outDir, 'apps.md'), markdown(rows, { seconds }))
    return seconds
  }
  let seconds = 0
  try {
    for (const task of tasks) {
      const act = async (page: Page) => (await task.baseline(page), await page.waitForTimeout(TAIL_MS))
      const row: AppsRow = { task, baseline: await baseline.run(task.id, site.startUrl(task), act, (page) => readState(page, storageKeyOf(task)), (s) => judgeState(task.expect, s)) }
      if (h) {
        row.tandem = await runTandem(h, site, model, task, timeoutMs)
        // A tab left open keeps its timers: the next task starts from a quiet browser.
        for (const page of h.ext.context.pages()) if (page.url().includes('/a/')) await page.close().catch(() => undefined)
      }
      rows.push(row)
      seconds = save()
      log(`${task.id}: baseline ${row.baseline.ok ? 'ok' : `FAIL ${row.baseline.why}`}${row.tandem ? ` · tandem ${row.tandem.outcome} ${row.tandem.ms}ms ${row.tandem.cause}` : ''}`)
    }
  } finally {
    seconds = save()
    await Promise.race([Promise.allSettled([done(), site.close()]), new Promise((r) => setTimeout(r, 20_000))])
  }
  return { rows, summary: summarise(rows), seconds }
}

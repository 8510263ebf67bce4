import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildPages } from '../corpus/build'
import { rigFor, type Rig } from '../support/rig'
import { zooBaseline } from './baseline'
import { makeUploadFolder } from './files'
import { zooModel } from './model'
import { markdown, summarise, type ZooRow, type ZooSummary } from './report'
import { runTask } from './run-task'
import { startZooSite, ZOO_DIST } from './site'
import type { Task } from './types'

export interface ZooOptions {
  tasks: Task[]
  /** Run Tandem too (false: the baseline only, which checks the zoo itself). */
  tandem?: boolean
  timeoutMs?: number
  outDir?: string
  log?: (line: string) => void
  /** A rig shared with another corpus; its server must allow uploads from `files`. */
  rig?: Rig
  /** The folder of files the person allows uploads from (made with makeUploadFolder). */
  files?: string
}

/** Bundles the zoo pages' scripts when they are missing or older than their sources. */
export const buildZooPages = (force = false) => buildPages('e2e/zoo/vite.config.ts', 'e2e/zoo/app', ZOO_DIST, force)

/**
 * The whole proof: built pages on the zoo site; each task done by plain Playwright in a plain Chromium, then by
 * Tandem (built server, scripted model, production extension in Chromium), one after another; the report written
 * as it goes, so an interrupted run still leaves its figures.
 */
export async function runZoo(options: ZooOptions): Promise<{ rows: ZooRow[]; summary: ZooSummary; seconds: number }> {
  const { tasks, tandem = true, timeoutMs = 30_000, outDir = 'e2e/output', log = () => undefined } = options
  buildZooPages()
  const files = options.files ?? makeUploadFolder(mkdtempSync(join(tmpdir(), 'tandem-zoo-files-')))
  const site = await startZooSite(tasks)
  // The folder of files the person allows uploads from, as they would configure it on the server.
  const { rig, done } = await rigFor(options.rig, { tandem, env: { TANDEM_UPLOAD_DIR: files } })
  const model = zooModel(tasks, () => site.url)
  rig.plan(model.rule)
  const baseline = zooBaseline(rig.plain, site, files)
  const h = tandem ? rig.h : undefined
  const began = Date.now()
  const rows: ZooRow[] = []
  mkdirSync(outDir, { recursive: true })
  const save = () => {
    const seconds = (Date.now() - began) / 1000
    writeFileSync(join(outDir, 'zoo.json'), JSON.stringify({ summary: summarise(rows), seconds, rows: rows.map(({ task, ...r }) => ({ id: task.id, family: task.family, needs: task.needs, ...r })) }, null, 1))
    writeFileSync(join(outDir, 'zoo.md'), markdown(rows, { seconds }))
    return seconds
  }
  let seconds = 0
  try {
    for (const task of tasks) {
      const row: ZooRow = { task, baseline: await baseline.run(task) }
      if (h) {
        row.tandem = await runTask(h, site, model, task, timeoutMs)
        // A tab left open keeps its timers and sockets: the next task starts from a quiet browser.
        for (const page of h.ext.context.pages()) if (page.url().includes('/z/')) await page.close().catch(() => undefined)
      }
      rows.push(row)
      seconds = save()
      log(`${task.id}: baseline ${row.baseline.ok ? 'ok' : `FAIL ${row.baseline.why}`}${row.tandem ? ` · tandem ${row.tandem.outcome} ${row.tandem.ms}ms ${row.tandem.outcome === 'pass' ? '' : row.tandem.failure || row.tandem.looks.join(' · ') || row.tandem.why}` : ''}`)
    }
  } finally {
    seconds = save()
    await Promise.race([Promise.allSettled([done(), site.close()]), new Promise((r) => setTimeout(r, 20_000))])
  }
  return { rows, summary: summarise(rows), seconds }
}

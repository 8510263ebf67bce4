import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runApps } from './apps/apps-run'
import { suiteShare as appsShare } from './apps/subset'
import { TASKS as APP_TASKS } from './apps/tasks'
import { startRig, type Rig } from './support/rig'
import { makeUploadFolder } from './zoo/files'
import { suiteShare } from './zoo/subset'
import { TASKS } from './zoo/tasks'
import { runZoo } from './zoo/zoo-run'

// The issues' proof on deterministic shares of the zoo and of the real apps (npm run zoo and npm run apps run all of
// them): each task done by plain Playwright and by Tandem (production extension, scripted model naming targets by
// their words), on one rig; the zoo's verdicts come from its site's request log, the apps' from the page's state.
const files = makeUploadFolder(mkdtempSync(join(tmpdir(), 'tandem-zoo-files-')))
let rig: Rig

beforeAll(async () => {
  // The folder of files the person allows uploads from, as they would configure it on the server.
  rig = await startRig({ env: { TANDEM_UPLOAD_DIR: files } })
}, 120_000)
afterAll(() => rig?.close(), 30_000)

describe('the component-library zoo', () => {
  it('solves with no second look every task plain Playwright solves', { timeout: 400_000 }, async () => {
    const { rows } = await runZoo({ tasks: suiteShare(TASKS), outDir: 'e2e/output/suite', timeoutMs: 20_000, rig, files })
    expect(rows.filter((r) => !r.baseline.ok).map((r) => `${r.task.id}: ${r.baseline.why}`), 'tasks the baseline did not solve (a broken zoo page)').toEqual([])
    // Checked before the owed list: a task Tandem calls done must be done on the site.
    expect(rows.filter((r) => r.tandem?.untrue).map((r) => `${r.task.id}: ${r.tandem!.untrue}`), 'tasks Tandem ended SUCCEEDED that the site says are not done').toEqual([])
    const owed = rows
      .filter((r) => r.baseline.ok && r.tandem?.outcome !== 'pass')
      .map((r) => `${r.task.id} [${r.tandem?.outcome}] ${r.tandem?.outcome === 'fail' ? r.tandem.failure || r.tandem.why : r.tandem?.looks.join(' · ')}`)
    expect(owed, 'tasks the baseline solves that Tandem did not solve with its plan as written').toEqual([])
  })
})

describe('real apps (TodoMVC builds, jQuery-era pages)', () => {
  it('solves with no second look, no needless question and no false "no effect" every task plain Playwright solves', { timeout: 300_000 }, async () => {
    const { rows, summary } = await runApps({ tasks: appsShare(APP_TASKS), outDir: 'e2e/output/suite', timeoutMs: 20_000, rig })
    expect(rows.filter((r) => !r.baseline.ok).map((r) => `${r.task.id}: ${r.baseline.why}`), 'tasks the baseline did not solve (a broken app)').toEqual([])
    expect(rows.filter((r) => r.tandem?.untrue).map((r) => `${r.task.id}: ${r.tandem!.untrue}`), "tasks Tandem ended SUCCEEDED that the page's state says are not done").toEqual([])
    const owed = rows.filter((r) => r.tandem?.outcome !== 'pass').map((r) => `${r.task.id} [${r.tandem?.outcome}] ${r.tandem?.cause}`)
    expect(owed, 'tasks the baseline solves that Tandem did not solve with its plan as written').toEqual([])
    expect(summary.overAsked, 'tasks asked about more than the write their goal needs').toEqual([])
    expect(summary.noEffect, 'tasks with a step reported ACTION_NO_EFFECT on a plan the baseline carries out').toEqual([])
  })
})

/**
 * The test runs of `npm test` (unit and integration, extension, e2e) with every output they leave in one folder,
 * then the scan of that folder for the suite's canaries, and a read of every audit event its servers wrote. A run
 * that fails, a canary found, or an event that does not read as its type (protocol/audit-events.ts) fails the suite.
 * The folder is removed when everything passed and kept (its path printed) when something did not.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { unreadableAuditEvents } from '../test/support/audit-types'
import { describeScan, scanOutputs } from '../test/support/scan-outputs'

const given = process.env.TANDEM_TEST_OUTPUT
const dir = resolve(given || mkdtempSync(join(tmpdir(), 'tandem-outputs-')))
const vitest = resolve('node_modules/.bin/vitest')
const runs = [['run'], ['run', '-c', 'vitest.extension.config.ts'], ['run', '-c', 'vitest.e2e.config.ts']]

let failed = false
for (const args of runs) {
  const { status } = spawnSync(vitest, args, { stdio: 'inherit', env: { ...process.env, TANDEM_TEST_OUTPUT: dir } })
  if (status !== 0) {
    failed = true
    break
  }
}

const report = scanOutputs(dir)
console.log(`\n${describeScan(report)}`)
const audits = unreadableAuditEvents(dir)
console.log(`audit events read: ${audits.events}, not of their type's shape: ${audits.unreadable.length}`)
for (const e of audits.unreadable.slice(0, 20)) console.log(`  ${e.file}:${e.line} ${e.type}: ${e.problem}`)
if (failed || report.hits.length || audits.unreadable.length) {
  console.log(`outputs kept in ${dir}`)
  process.exit(1)
}
if (!given) rmSync(dir, { recursive: true, force: true })

/**
 * Scans a folder of test outputs for the suite's canaries (test/support/canaries.ts):
 *   npm run scan:outputs -- <folder>     (default: $TANDEM_TEST_OUTPUT)
 * Prints the figures and each hit by file and canary name; exits 1 on any hit, 2 when it cannot start.
 */
import { existsSync } from 'node:fs'
import { describeScan, scanOutputs } from '../test/support/scan-outputs'

const dir = process.argv[2] ?? process.env.TANDEM_TEST_OUTPUT
if (!dir || !existsSync(dir)) {
  console.error('usage: npm run scan:outputs -- <folder of test outputs>')
  process.exit(2)
}
const report = scanOutputs(dir)
console.log(describeScan(report))
process.exit(report.hits.length ? 1 : 0)

import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { outputFolder } from '../../test/support/outputs'

/**
 * Where a test's pictures for review go. The committed ones under docs/ change only when asked
 * (TANDEM_DOCS_SHOTS=1), so a test run leaves the working tree as it found it; otherwise they go with the
 * run's other outputs.
 */
export function shotsDir(name: string): string {
  const dir = process.env.TANDEM_DOCS_SHOTS ? join('docs', name) : join(outputFolder('shots').dir, name)
  mkdirSync(dir, { recursive: true })
  return dir
}

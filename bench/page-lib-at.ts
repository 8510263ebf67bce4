/**
 * The page library as a git commit had it, bundled as the current one is: the bench's "before" for perception,
 * timed in the same run and the same browser as today's, since these machines are too noisy to compare runs.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { bundlePageLib } from '../test/support/page-lib'

/** The last commit before perception followed what a person can do (hover rows, transparent toggles, icon words). */
export const PERCEPTION_BEFORE = process.env.BENCH_PERCEPTION_BEFORE ?? 'a16b109'

/** The IIFE that sets `window.__tandemPage` at `ref`, or undefined when this clone lacks the commit. */
export async function pageLibSourceAt(ref: string): Promise<string | undefined> {
  try {
    execFileSync('git', ['cat-file', '-e', `${ref}^{commit}`], { stdio: 'ignore' })
  } catch {
    return undefined
  }
  const dir = mkdtempSync(join(tmpdir(), 'tandem-page-lib-'))
  try {
    const archive = execFileSync('git', ['archive', ref, 'extension/lib/page', 'protocol'], { maxBuffer: 64 << 20 })
    execFileSync('tar', ['-x', '-C', dir], { input: archive })
    return await bundlePageLib(join(dir, 'extension/lib/page/index.ts'), [resolve('node_modules')])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

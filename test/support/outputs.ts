import { appendFileSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Where the suite's outputs go: `npm test` sets TANDEM_TEST_OUTPUT to one folder for the whole run and scans
 * it at the end. Without it (one file run by hand) outputs go to the OS tmp and are removed as before.
 */
export const testOutputDir = (): string | undefined => process.env.TANDEM_TEST_OUTPUT || undefined

/** A fresh folder for one server, browser or fake model; `keep` says whether the run's scan will read it. */
export function outputFolder(prefix: string): { dir: string; keep: boolean } {
  const base = testOutputDir()
  if (base) mkdirSync(base, { recursive: true })
  return { dir: mkdtempSync(join(base ?? tmpdir(), `${prefix}-`)), keep: !!base }
}

/** Appends one line to a file of the run's outputs (nothing without TANDEM_TEST_OUTPUT). */
export function appendOutput(relativePath: string, line: string): void {
  const base = testOutputDir()
  if (!base) return
  const path = join(base, relativePath)
  mkdirSync(join(path, '..'), { recursive: true })
  appendFileSync(path, line.endsWith('\n') ? line : `${line}\n`)
}

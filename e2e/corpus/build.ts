import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { CORPUS_DIST } from './site'

const newest = (dir: string): number =>
  Math.max(...readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs)))

const SHARED_CONFIG = 'e2e/support/library-vite-config.ts'

/** Builds the server, console and extension when a fresh clone has none (npm run build, a few minutes). */
export function buildTandemIfMissing(): void {
  if (existsSync('.output/server/index.mjs') && existsSync('dist/chrome-mv3/manifest.json')) return
  const npm = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' })
  if (npm.status !== 0) throw new Error('npm run build failed')
}

/** Bundles a set of fixture pages with Vite when they are missing or older than their sources (a few seconds). */
export function buildPages(config: string, sources: string, dist: string, force = false): void {
  const manifest = join(dist, '.vite/manifest.json')
  // The config's shared part (e2e/support/library-vite-config.ts) counts as the config.
  const configs = Math.max(statSync(config).mtimeMs, statSync(SHARED_CONFIG).mtimeMs)
  if (!force && existsSync(manifest) && statSync(manifest).mtimeMs > Math.max(newest(sources), configs)) return
  const vite = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '-c', config], { stdio: 'inherit' })
  if (vite.status !== 0) throw new Error(`the pages of ${config} did not build`)
}

/** Bundles the corpus pages' scripts when they are missing or older than their sources. */
export const buildCorpusPages = (force = false): void => buildPages('e2e/corpus/vite.config.ts', 'e2e/corpus/app', CORPUS_DIST, force)

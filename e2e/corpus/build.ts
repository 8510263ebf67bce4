import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { CORPUS_DIST } from './site'

const newest = (dir: string): number =>
  Math.max(...readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs)))

/** Builds the server, console and extension when a fresh clone has none (npm run build, a few minutes). */
export function buildTandemIfMissing(): void {
  if (existsSync('.output/server/index.mjs') && existsSync('dist/chrome-mv3/manifest.json')) return
  const npm = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' })
  if (npm.status !== 0) throw new Error('npm run build failed')
}

/** Bundles the corpus pages' scripts when they are missing or older than their sources (a few seconds). */
export function buildCorpusPages(force = false): void {
  const manifest = join(CORPUS_DIST, '.vite/manifest.json')
  if (!force && existsSync(manifest) && statSync(manifest).mtimeMs > newest('e2e/corpus/app')) return
  const vite = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '-c', 'e2e/corpus/vite.config.ts'], { stdio: 'inherit' })
  if (vite.status !== 0) throw new Error('the corpus pages did not build')
}

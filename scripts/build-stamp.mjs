// What the build was made from: one digest of every file it reads. `npm run build` writes it beside the build;
// `npm start` builds again only when the sources differ from it (or a build is missing), so a start after the
// tests, or a second start, runs the very build that was made and tested.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const STAMP = join(root, '.output', 'tandem-build.json')
const DIRS = ['server', 'extension', 'protocol', 'ui']
const FILES = ['package.json', 'package-lock.json', 'nitro.config.ts', 'wxt.config.ts', 'vite.console.config.ts', 'vite.replay.config.ts', 'tsconfig.json']
/** What the build needs to exist for the stamp to describe it. */
const BUILT = [join('.output', 'server', 'index.mjs'), join('dist', 'chrome-mv3', 'manifest.json')]

function* walk(dir) {
  if (!existsSync(dir)) return
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* walk(path)
    else if (entry.isFile()) yield path
  }
}

/** The digest of the sources as they are now. */
export function sourceDigest() {
  const hash = createHash('sha256')
  const files = [...DIRS.flatMap((d) => [...walk(join(root, d))]), ...FILES.map((f) => join(root, f)).filter(existsSync)]
  for (const file of files) hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0')
  return hash.digest('hex')
}

/** Whether the build on disk was made from the sources as they are now. */
export function buildIsCurrent() {
  if (!BUILT.every((p) => existsSync(join(root, p))) || !existsSync(STAMP)) return false
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8')).sources === sourceDigest()
  } catch {
    return false
  }
}

// The sources as the build began to read them: a file edited while it ran must not pass for built. Kept where the
// build's own steps do not clean.
const PENDING = join(root, 'node_modules', '.cache', 'tandem', 'build-sources')

export function beginBuild() {
  mkdirSync(dirname(PENDING), { recursive: true })
  writeFileSync(PENDING, sourceDigest())
}

export function writeStamp() {
  const sources = existsSync(PENDING) ? readFileSync(PENDING, 'utf8') : sourceDigest()
  writeFileSync(STAMP, `${JSON.stringify({ sources, at: new Date().toISOString() })}\n`)
  rmSync(PENDING, { force: true })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === 'begin') beginBuild()
  else if (process.argv[2] === 'write') writeStamp()
}

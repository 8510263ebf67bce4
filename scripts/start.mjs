// npm start: build when the sources changed since the last build (or there is none), then start the server.
import { spawnSync } from 'node:child_process'
import { buildIsCurrent } from './build-stamp.mjs'

const zh = /^zh/i.test(process.env.LC_ALL || process.env.LC_MESSAGES || process.env.LANG || '')

if (buildIsCurrent()) {
  console.log(zh ? '构建与源代码一致，直接启动（npm run build 会重新构建）。' : 'The build is up to date with the sources: starting it (npm run build builds again).')
} else {
  const built = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' })
  if (built.status !== 0) process.exit(built.status ?? 1)
}
await import('./serve.mjs')

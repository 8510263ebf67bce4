/**
 * npm run demo — builds Tandem, then runs one scripted purchase in the bundled demo shop through the real
 * server, the real extension in headless Chromium and a click on Approve in its side panel; prints the
 * timeline and a summary and leaves the audit zip in demo-output/. Exits 0 when the whole loop works.
 *   --no-build   use the artifacts of the last npm run build
 *   --out DIR    where the audit zip goes (default demo-output)
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CHROMIUM } from '../e2e/support/browser'
import { createCleanup } from './demo/cleanup'
import { STATUS_WORDS } from '../ui/status-words'
import { columns } from './demo/columns'
import { DemoFailure, demoText, terminalLang } from './demo/messages'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
// npm runs scripts from the project root; a relative --out means the folder the person typed the command in.
const invokedFrom = process.env.INIT_CWD ?? process.cwd()
process.chdir(root)
const args = process.argv.slice(2)
const outIndex = args.indexOf('--out')
const outDir = outIndex >= 0 && args[outIndex + 1] ? resolve(invokedFrom, args[outIndex + 1]) : resolve(root, 'demo-output')
const lang = terminalLang()
const t = demoText(lang)
const cleanup = createCleanup()
let build: ChildProcess | null = null

function interrupted(code: number) {
  console.error(`\n${t('interrupted')}`)
  build?.kill('SIGTERM')
  void cleanup.run().finally(() => process.exit(code))
}
process.once('SIGINT', () => interrupted(130))
process.once('SIGTERM', () => interrupted(143))
// Chromium's driver exits on Ctrl-C by itself once the browser is closed: the server and the folder go with it.
process.once('exit', () => cleanup.killNow())

function runBuild(): Promise<void> {
  return new Promise((done, fail) => {
    build = spawn('npm', ['run', 'build'], { stdio: 'inherit' })
    build.once('error', (error) => fail(new DemoFailure('build', error.message)))
    build.once('exit', (code, signal) => {
      build = null
      if (code === 0) done()
      else fail(new DemoFailure('build', `npm run build ${signal ? `was stopped by ${signal}` : `exited with ${code}`}`))
    })
  })
}

try {
  console.log(t('title'))
  if (!args.includes('--no-build')) {
    // A missing browser is known now; no reason to make the person wait for a build first.
    if (!existsSync(CHROMIUM)) throw new DemoFailure('browser', t('error.chromium', { path: CHROMIUM }))
    console.log(`▸ ${t('build')}`)
    const begun = Date.now()
    await runBuild()
    console.log(`▸ ${t('built', { s: Math.round((Date.now() - begun) / 1000) })}`)
  }
  // Loaded after the chdir: the server and extension paths are resolved from the project root.
  const { runDemo } = await import('./demo/run')
  const { CATALOG } = await import('../e2e/fixtures/shop')
  const result = await runDemo({ outDir, t, lang, cleanup })
  const order = result.orders[0]
  const productName = (id: string) => CATALOG.find((p) => p.id === id)?.name ?? id
  const screenshots = result.zipEntries.filter((name) => name.startsWith('artifacts/')).length
  console.log(`\n${t('summary')}`)
  const summary: [string, string][] = [
    [t('summary.status'), STATUS_WORDS[lang][result.status]],
    [t('summary.order'), order ? `#1 ${order.items.map(productName).join(', ')} · ${order.name}` : t('summary.noOrder')],
    [t('summary.approval'), t('summary.approvalValue', { count: result.panelClicks, client: result.clientId })],
    [t('summary.chain'), t('summary.chainValue', { events: result.chain.events })],
    [t('summary.export'), t('summary.exportValue', { path: relative(root, result.zipPath) || result.zipPath, events: 'events.jsonl', artifacts: screenshots })],
    [t('summary.time'), t('seconds', { s: Math.round(result.elapsedMs / 100) / 10 })],
  ]
  for (const line of columns(summary)) console.log(line)
  console.log(`\n✔ ${t('ok')}`)
  process.exit(0)
} catch (error) {
  await cleanup.run()
  const stage = error instanceof DemoFailure ? t(`stage.${error.stage}`) : t('stage.task')
  console.error(`\n✘ ${t('failed', { stage, message: (error as Error)?.message ?? String(error) })}`)
  process.exit(1)
}

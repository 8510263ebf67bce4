import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import type { AuditEvent, StatusView, StepView, TaskStatus } from '#protocol'
import { isTerminal, parseAuditEvent } from '#protocol'
import type { Lang } from '../../ui/i18n'
import { STATUS_WORDS } from '../../ui/status-words'
import { CHROMIUM, EXTENSION_DIR, launchExtension } from '../../e2e/support/browser'
import { startFixtureSite } from '../../e2e/support/fixture-server'
import type { ShopState } from '../../e2e/fixtures/shop'
import { startServer, type TestServer } from '../../test/support/server'
import { approveInPanel } from './approve'
import { createCleanup, type Cleanup } from './cleanup'
import { saveExport, verifyExport } from './export'
import { DemoFailure, demoText, terminalLang, type DemoStage, type DemoText } from './messages'
import { DEMO_BUYER, DEMO_GOAL, DEMO_PRODUCT, demoScript } from './task'
import { fillFromAudit, formatStep, needsAudit, newSteps, waitingLine } from './timeline'

export interface DemoOptions {
  /** Where the audit zip goes, as <taskId>.zip. */
  outDir: string
  log?: (line: string) => void
  t?: DemoText
  /** The language of `t`, for the words the demo takes from the protocol (reasons, statuses, errors). */
  lang?: Lang
  /** Pass one to stop the run's pieces from outside (Ctrl-C); the run always stops them itself when it ends. */
  cleanup?: Cleanup
  taskTimeoutMs?: number
  cardTimeoutMs?: number
}

export interface PanelApproval {
  actionId: string
  /** Who the server recorded as approving: the extension's client id when the panel sent it. */
  by: string
  userAgent?: string
}

export interface DemoResult {
  taskId: string
  status: TaskStatus
  steps: StepView[]
  orders: ShopState['orders']
  clientId: string
  approvals: PanelApproval[]
  /** How many confirmation cards the demo clicked Approve on. */
  panelClicks: number
  zipPath: string
  zipEntries: string[]
  chain: { verdict: string; events: number; head: string }
  tempRoot: string
  elapsedMs: number
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const SERVER_ENTRY = '.output/server/index.mjs'

/** Runs `work` as one stage: whatever it throws is reported as a failure of that stage. */
async function stage<T>(name: DemoStage, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof DemoFailure) throw error
    throw new DemoFailure(name, (error as Error)?.message ?? String(error))
  }
}

async function api<T>(server: TestServer, method: string, path: string, body?: unknown): Promise<T> {
  const res = await server.api(method, path, body)
  if (res.status !== 200 || res.body?.ok !== true) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body?.error ?? res.body)}`)
  return res.body.data as T
}

function whyItEnded(view: StatusView): string {
  if (view.task.error) return `${view.task.error.code}: ${view.task.error.message}`
  const failed = [...view.steps].reverse().find((s) => s.outcome !== 'done')
  if (failed) return formatStep(failed)
  return view.task.result?.text ?? ''
}

/**
 * The demo on already built artifacts: the real server on a free loopback port with its own folders, the demo
 * shop, headless Chromium with the extension as people load it, one scripted purchase whose checkout is
 * approved by a click in the side panel, and the audit export saved and verified.
 */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  // Words given without a language are English (as the tests pass them); else the terminal's.
  const lang = options.lang ?? (options.t ? 'en' : terminalLang())
  const t = options.t ?? demoText(lang)
  const log = options.log ?? ((line: string) => console.log(line))
  const cleanup = options.cleanup ?? createCleanup()
  const started = Date.now()
  try {
    const server = await stage('server', async () => {
      if (!existsSync(SERVER_ENTRY)) throw new DemoFailure('server', t('error.notBuilt', { path: SERVER_ENTRY }))
      const s = await startServer()
      cleanup.add(
        () => s.close(),
        () => void s.kill('SIGKILL'),
      )
      return s
    })
    log(`▸ ${t('server', { url: server.url })}`)

    const site = await stage('shop', async () => {
      const s = await startFixtureSite()
      cleanup.add(() => s.close())
      return s
    })
    const shopUrl = `${site.url}/shop/`
    log(`▸ ${t('shop', { url: shopUrl })}`)

    const { ext, panel, clientId } = await stage('browser', async () => {
      if (!existsSync(CHROMIUM)) throw new DemoFailure('browser', t('error.chromium', { path: CHROMIUM }))
      const manifest = join(EXTENSION_DIR, 'manifest.json')
      if (!existsSync(manifest)) throw new DemoFailure('browser', t('error.notBuilt', { path: manifest }))
      const e = await launchExtension()
      cleanup.add(() => e.close())
      const p = await e.openPanel()
      await e.setSettings({ serverUrl: server.url, token: server.token })
      const id = await e.clientId()
      await p.reload()
      return { ext: e, panel: p, clientId: id }
    })
    log(`▸ ${t('browser', { chromium: CHROMIUM, id: ext.extensionId })}`)
    log(`▸ ${t('settings', { url: server.url })}`)

    const taskId = await stage('task', async () => {
      const data = await api<{ taskId: string }>(server, 'POST', '/api/agent/start', { goal: DEMO_GOAL, clientId, script: demoScript, startUrl: shopUrl })
      // As a click in the panel would: the worker pulls the task now instead of at its next alarm.
      await ext.wake()
      return data.taskId
    })
    log(`▸ ${t('started', { id: taskId, goal: DEMO_GOAL })}`)
    log(`  ${t('timeline')}`)

    const { view, panelClicks } = await followTask({ server, panel, taskId, clientId, t, lang, log, timeoutMs: options.taskTimeoutMs ?? 120_000, cardTimeoutMs: options.cardTimeoutMs ?? 30_000 })
    if (view.task.status !== 'SUCCEEDED') throw new DemoFailure('task', t('error.taskEnded', { status: view.task.status, detail: whyItEnded(view) }))

    const approvals = await stage('verify', async () => {
      const orders = site.shop.orders
      const placed = orders.length === 1 && orders[0].name === DEMO_BUYER && orders[0].items.join() === DEMO_PRODUCT
      if (!placed) throw new DemoFailure('verify', t('error.orders', { count: orders.length, product: DEMO_PRODUCT, buyer: DEMO_BUYER }))
      const { events } = await api<{ events: AuditEvent[] }>(server, 'GET', `/api/audit/${taskId}`)
      const list = events.map(parseAuditEvent).flatMap((e) =>
        e.type === 'confirmation.answered' ? [{ actionId: e.actionId, by: e.data.by, userAgent: e.data.source.userAgent }] : [],
      )
      const stranger = list.find((a) => a.by !== clientId)
      if (!list.length || stranger) throw new DemoFailure('verify', t('error.approvedBy', { by: stranger?.by ?? '—', client: clientId }))
      return list
    })
    const saved = await stage('export', () => saveExport(server, taskId, options.outDir, t))
    log(`▸ ${t('exported', { path: saved.path })}`)
    const check = await stage('verify', () => verifyExport(saved.path, server, t))

    return {
      taskId,
      status: view.task.status,
      steps: view.steps,
      orders: structuredClone(site.shop.orders),
      clientId,
      approvals,
      panelClicks,
      zipPath: saved.path,
      zipEntries: saved.entries,
      chain: { verdict: check.verdict, events: check.chain?.count ?? 0, head: check.chain?.head?.hash ?? '' },
      tempRoot: cleanup.root,
      elapsedMs: Date.now() - started,
    }
  } finally {
    await cleanup.run()
  }
}

interface Follow {
  server: TestServer
  panel: Page
  taskId: string
  clientId: string
  t: DemoText
  lang: Lang
  log: (line: string) => void
  timeoutMs: number
  cardTimeoutMs: number
}

/** Prints each step as it lands and approves each confirmation in the panel, until the task ends. */
async function followTask({ server, panel, taskId, clientId, t, lang, log, timeoutMs, cardTimeoutMs }: Follow): Promise<{ view: StatusView; panelClicks: number }> {
  const printed = new Set<string>()
  const approved = new Set<string>()
  const deadline = Date.now() + timeoutMs
  let lastStatus: TaskStatus | null = null
  let panelClicks = 0
  for (;;) {
    const view = await stage('task', () => api<StatusView>(server, 'GET', `/api/agent/status?taskId=${taskId}`))
    const fresh = newSteps(view.steps, printed)
    const events = fresh.some(needsAudit) ? (await stage('task', () => api<{ events: AuditEvent[] }>(server, 'GET', `/api/audit/${taskId}`))).events : []
    for (const step of fresh) log(`  ${formatStep(fillFromAudit(step, events), { t, lang })}`)
    const status = view.task.status
    if (status !== lastStatus && status !== 'RUNNING' && status !== 'WAITING_CONFIRMATION') log(`  · ${t('status', { status: STATUS_WORDS[lang][status] })}`)
    lastStatus = status
    if (isTerminal(status)) return { view, panelClicks }

    const pending = view.pendingConfirmation
    if (status === 'WAITING_CONFIRMATION' && pending && !approved.has(pending.actionId)) {
      log(`  ⏸ ${waitingLine(pending, { t, lang })}`)
      log(`  ▸ ${t('clicking', { url: panel.url() })}`)
      await stage('approval', () => approveInPanel(panel, t, cardTimeoutMs))
      approved.add(pending.actionId)
      panelClicks++
      await stage('approval', () => waitUntilAnswered(server, taskId, pending.actionId, t))
      log(`  ✔ ${t('approved', { client: clientId })}`)
      continue
    }
    if (Date.now() > deadline) throw new DemoFailure('task', t('error.taskStuck', { status, s: Math.round(timeoutMs / 1000) }))
    await sleep(200)
  }
}

/** The click counts only once the server has the answer; a card whose button does nothing is a failure. */
async function waitUntilAnswered(server: TestServer, taskId: string, actionId: string, t: DemoText) {
  const until = Date.now() + 10_000
  for (;;) {
    const view = await api<StatusView>(server, 'GET', `/api/agent/status?taskId=${taskId}`)
    if (view.pendingConfirmation?.actionId !== actionId) return
    if (Date.now() > until) throw new DemoFailure('approval', t('error.notApproved'))
    await sleep(100)
  }
}

import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { AuditEvent, ScriptStep, StatusView, TaskStatus } from '#protocol'
import { appendOutput } from '../../test/support/outputs'
import { startServer, type StartOptions, type TestServer } from '../../test/support/server'
import { launchExtension, type ExtensionBrowser, type LaunchOptions } from './browser'
import { assertNoFalseDone } from './false-done'
import { startFixtureSite, type FixtureSite } from './fixture-server'

export interface Harness {
  server: TestServer
  site: FixtureSite
  ext: ExtensionBrowser
  clientId: string
  /** Starts a scripted task bound to the extension; the engine sends `navigate` to startUrl first. */
  runScript(script: ScriptStep[], startUrl?: string, goal?: string): Promise<string>
  status(taskId: string): Promise<StatusView>
  /**
   * Polls until the task is in one of `statuses`; fails with the task's story if it never gets there, and fails when
   * it ended SUCCEEDED on a step its own observation found without effect (false-done.ts).
   */
  waitFor(taskId: string, statuses: TaskStatus | TaskStatus[], timeoutMs?: number): Promise<StatusView>
  /** Approves (or rejects) the pending confirmation through the API, as the console would. */
  confirm(taskId: string, approved: boolean, reason?: string): Promise<StatusView>
  audit(taskId: string): Promise<AuditEvent[]>
  artifacts(taskId: string): string[]
  artifact(taskId: string, name: string): Buffer
  close(): Promise<void>
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function ok<T>(res: Promise<{ status: number; body: any }>): Promise<T> {
  const { status, body } = await res
  if (status !== 200 || body?.ok !== true) throw new Error(`expected ok, got ${status}: ${JSON.stringify(body)}`)
  return body.data as T
}

/** A built server, the fixture sites and a browser with the built extension, connected to each other. */
export async function startHarness(serverOptions: StartOptions = {}, browserOptions: LaunchOptions = {}): Promise<Harness> {
  const [server, site] = await Promise.all([startServer(serverOptions), startFixtureSite()])
  const ext = await launchExtension(browserOptions)
  // What the extension's pages and the fixture pages print is output too: the scan reads it with the server's.
  const consoleLog = `browser/console-${process.pid}-${Date.now()}.log`
  ext.context.on('console', (message) => appendOutput(consoleLog, `${message.type()} ${message.location().url} ${message.text()}`))
  // Headless Chrome shows no side panel, so the panel is a tab here: opened first, it leaves the page a test opens
  // later as the person's current tab, as beside a real side panel. (Screenshots do not need the task tab in front.)
  await ext.openPanel()
  await ext.setSettings({ serverUrl: server.url, token: server.token })
  const clientId = await ext.clientId()

  const self: Harness = {
    server,
    site,
    ext,
    clientId,
    async runScript(script, startUrl, goal = 'e2e scripted task') {
      const data = await ok<{ taskId: string }>(
        server.api('POST', '/api/agent/start', { goal, clientId, script, ...(startUrl ? { startUrl } : {}) }),
      )
      // As a click in the panel would: no waiting for the next alarm.
      await ext.wake()
      return data.taskId
    },
    status: (taskId) => ok<StatusView>(server.api('GET', `/api/agent/status?taskId=${taskId}`)),
    async waitFor(taskId, statuses, timeoutMs = 30_000) {
      const wanted = Array.isArray(statuses) ? statuses : [statuses]
      const until = Date.now() + timeoutMs
      for (;;) {
        const view = await self.status(taskId)
        if (wanted.includes(view.task.status)) {
          if (view.task.status === 'SUCCEEDED') assertNoFalseDone(taskId, await self.audit(taskId))
          if (process.env.TANDEM_E2E_TRACE && Date.now() - (until - timeoutMs) > 5000) {
            const events = await self.audit(taskId)
            const base = Date.parse(events[0].ts)
            console.log(`slow task ${taskId}:\n` + events.map((e) => `  +${Date.parse(e.ts) - base}ms ${e.type} ${e.actionId ?? ''}`).join('\n'))
          }
          return view
        }
        if (Date.now() > until) {
          const steps = view.steps.map((s) => `${s.seq} ${s.type} ${s.outcome} ${s.errors.map((e) => `${e.code}: ${e.message}`).join('; ')}`)
          throw new Error(`task is ${view.task.status}, expected ${wanted.join('|')}\n${JSON.stringify(view.task)}\n${steps.join('\n')}`)
        }
        await sleep(100)
      }
    },
    async confirm(taskId, approved, reason) {
      const view = await self.waitFor(taskId, 'WAITING_CONFIRMATION')
      const pending = view.pendingConfirmation!
      await ok(server.api('POST', '/api/agent/confirm', { taskId, actionId: pending.actionId, approved, ...(reason ? { reason } : {}) }))
      return view
    },
    async audit(taskId) {
      return (await ok<{ events: AuditEvent[] }>(server.api('GET', `/api/audit/${taskId}`))).events
    },
    artifacts(taskId) {
      const dir = join(server.auditDir, taskId, 'artifacts')
      return existsSync(dir) ? readdirSync(dir) : []
    },
    artifact: (taskId, name) => readFileSync(join(server.auditDir, taskId, 'artifacts', name)),
    async close() {
      await ext.close().catch(() => undefined)
      await Promise.all([server.close(), site.close()])
    },
  }
  return self
}

/** The observation events of a task, keyed by action id. */
export function observationsByAction(events: AuditEvent[]): Map<string, AuditEvent[]> {
  const map = new Map<string, AuditEvent[]>()
  for (const event of events) {
    if (event.type !== 'observation' || !event.actionId) continue
    map.set(event.actionId, [...(map.get(event.actionId) ?? []), event])
  }
  return map
}

import type { AuditEvent, ScriptStep, TaskStatus } from '#protocol'
import type { Harness } from '../harness'
import type { Exchange, FaultProxy } from './proxy'
import type { RunPlan } from './schedule'

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
export const TERMINAL: TaskStatus[] = ['SUCCEEDED', 'FAILED', 'CANCELED']

/** The harness with the proxy the extension talks through. */
export interface FaultRig {
  h: Harness
  proxy: FaultProxy
}

/** One run's task: a short script on the tally page whose effects are tagged with the run's id. */
export interface RunTask {
  id: string
  /** Empty until the task is started: a fault is laid in its path before it exists, so none of its calls slips past. */
  taskId: string
  name: string
  url: string
  /** The hits the page sends when every action ran exactly once. */
  expectedHits: string[]
}

export function tallyScript(name: string): ScriptStep[] {
  return [
    { type: 'click', selector: '#add' },
    { type: 'waitFor', text: 'Counted', timeoutMs: 4000 },
    { type: 'type', selector: '#name', text: name },
    { type: 'click', selector: '#record' },
    { type: 'waitFor', text: `Recorded ${name}`, timeoutMs: 4000 },
  ]
}

/** The run's task as it will be, not yet started. */
export function planRunTask(rig: FaultRig, plan: RunPlan): RunTask {
  const id = `r${plan.index}`
  const name = `n${plan.index}x`
  const url = `${rig.h.site.url}/tally?run=${id}&ms=${plan.readyMs}`
  return { id, taskId: '', name, url, expectedHits: [`${id}:add`, `${id}:typed:${name}`, `${id}:record:${name}`] }
}

/**
 * Starts the run's task without waking the extension. The extension may already be waiting on a long-poll, which
 * the server answers with the opening navigate at once: a rule aimed at it must be laid before this.
 */
export async function startRunTask(rig: FaultRig, task: RunTask): Promise<void> {
  const { status, body } = await rig.h.server.api('POST', '/api/agent/start', {
    goal: `fault run ${task.id}`,
    clientId: rig.h.clientId,
    startUrl: task.url,
    script: tallyScript(task.name),
  })
  if (status !== 200) throw new Error(`the run's task did not start: ${status} ${JSON.stringify(body)}`)
  task.taskId = body.data.taskId
}

/** Creates and starts the run's task without waking the extension. */
export async function createRunTask(rig: FaultRig, plan: RunPlan): Promise<RunTask> {
  const task = planRunTask(rig, plan)
  await startRunTask(rig, task)
  return task
}

/**
 * Points the extension at the proxy, and makes sure every call from now on goes through it: a long-poll the
 * worker opened to the server before the switch would otherwise hand the next task's opening action around the
 * proxy, which then never sees that action delivered and cannot aim a fault at it or at its report.
 */
export async function routeThroughProxy(rig: FaultRig): Promise<void> {
  await rig.h.ext.setSettings({ serverUrl: rig.proxy.url, token: rig.h.server.token })
  // A stopped worker's connections close with it; the one it starts next reads the new settings.
  await rig.h.ext.stopWorker()
  const seen = rig.proxy.exchanges.length
  await rig.h.ext.wake()
  await until('the extension to call the server through the proxy', () => rig.proxy.exchanges.slice(seen).some((e) => e.path === '/api/agent/next'), 30_000)
}

/** The action a next reply carried, if any. */
/** The action an answer hands out: a next's, or a report's that took the task's next action with it (takeNext). */
export const actionIn = (exchange: Exchange) =>
  (exchange.path === '/api/agent/next' || exchange.path === '/api/agent/report') && exchange.response?.status === 200
    ? (exchange.response.json?.data?.action ?? null)
    : null

/** The id of the task's action with this seq, once the proxy has seen it delivered. */
export function actionIdOf(proxy: FaultProxy, taskId: string, seq: number): string | undefined {
  for (const exchange of proxy.exchanges) {
    const action = actionIn(exchange)
    if (action?.taskId === taskId && action.seq === seq) return action.actionId
  }
  return undefined
}

/** The server's answer to a next that hands out the task's action with this seq. */
export const isNextWith = (task: Pick<RunTask, 'taskId'>, seq: number) => (exchange: Exchange) => {
  const action = actionIn(exchange)
  return !!task.taskId && action?.taskId === task.taskId && action.seq === seq
}

/** A report of the task's action with this seq (by its id, as the proxy saw it delivered). */
export const isReportOf = (proxy: FaultProxy, task: Pick<RunTask, 'taskId'>, seq: number) => (exchange: Exchange) => {
  if (exchange.path !== '/api/agent/report' || !task.taskId || exchange.json?.taskId !== task.taskId) return false
  const actionId = actionIdOf(proxy, task.taskId, seq)
  return !!actionId && exchange.json.actionId === actionId
}

/** Whether the server answered a report of the task's action with this seq (so the extension moved on). */
export const reportAnswered = (proxy: FaultProxy, task: Pick<RunTask, 'taskId'>, seq: number) =>
  proxy.exchanges.some((e) => e.response?.status === 200 && isReportOf(proxy, task, seq)(e))

/**
 * The extension's first ask for the task's action with this seq: a next for the task sent once the report of
 * the action before was answered, or that report itself when it asks for the next action (takeNext). Only the
 * answer says which action it carries, so this matches the request.
 */
export const isNextFor = (proxy: FaultProxy, task: Pick<RunTask, 'taskId'>, seq: number) => (exchange: Exchange) =>
  !!task.taskId &&
  !exchange.response &&
  ((exchange.path === '/api/agent/next' && exchange.json?.taskId === task.taskId && reportAnswered(proxy, task, seq - 1)) ||
    (exchange.path === '/api/agent/report' && exchange.json?.takeNext === true && isReportOf(proxy, task, seq - 1)(exchange)))

export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(25)
  }
}

export function within<T>(promise: Promise<T>, what: string, timeoutMs = 30_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs)))
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** The executor's in-flight record, read from an extension page so a stopped worker does not matter. */
export async function inflight(rig: FaultRig): Promise<{ actionId: string; phase: string } | null> {
  const panel = await rig.h.ext.openPanel()
  return panel.evaluate(async () => {
    const state = (await (globalThis as any).chrome.storage.local.get('tandem.executor'))['tandem.executor']
    return state?.inflight ? { actionId: state.inflight.actionId, phase: state.inflight.phase } : null
  })
}

/** Waits until the action is in flight in one of `phases`; returns the phase it was found in. */
export const inflightAt = (rig: FaultRig, actionId: string, phases: string[], timeoutMs = 30_000) =>
  until(
    `action ${actionId} in phase ${phases.join('|')}`,
    async () => {
      const current = await inflight(rig)
      return current?.actionId === actionId && phases.includes(current.phase) ? current.phase : null
    },
    timeoutMs,
  )

/** The run's tab as the extension sees it: "loading" or "complete". */
export async function tabStatus(rig: FaultRig, task: RunTask): Promise<string | undefined> {
  const panel = await rig.h.ext.openPanel()
  return panel.evaluate(async (part) => {
    const tabs = await (globalThis as any).chrome.tabs.query({})
    return tabs.find((t: { url?: string; pendingUrl?: string }) => (t.pendingUrl ?? t.url ?? '').includes(part))?.status
  }, `/tally?run=${task.id}&`)
}

/** The run's tab. */
export const taskPage = (rig: FaultRig, task: RunTask) => rig.h.ext.pageWith(`/tally?run=${task.id}&`)

export const auditOf = (rig: FaultRig, taskId: string): Promise<{ events: AuditEvent[]; verified: { ok: boolean; problem?: string } }> =>
  rig.h.server.api('GET', `/api/audit/${taskId}`).then((r) => {
    if (r.status !== 200) throw new Error(`the audit did not answer: ${r.status} ${JSON.stringify(r.body)}`)
    return r.body.data
  })

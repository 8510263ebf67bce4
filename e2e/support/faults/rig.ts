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

/** Creates the run's task without waking the extension, so a fault can be laid in its path first. */
export async function createRunTask(rig: FaultRig, plan: RunPlan): Promise<RunTask> {
  const id = `r${plan.index}`
  const name = `n${plan.index}x`
  const url = `${rig.h.site.url}/tally?run=${id}&ms=${plan.readyMs}`
  const { status, body } = await rig.h.server.api('POST', '/api/agent/start', {
    goal: `fault run ${id}`,
    clientId: rig.h.clientId,
    startUrl: url,
    script: tallyScript(name),
  })
  if (status !== 200) throw new Error(`the run's task did not start: ${status} ${JSON.stringify(body)}`)
  return { id, taskId: body.data.taskId, name, url, expectedHits: [`${id}:add`, `${id}:typed:${name}`, `${id}:record:${name}`] }
}

/** The action a next reply carried, if any. */
export const actionIn = (exchange: Exchange) =>
  exchange.path === '/api/agent/next' && exchange.response?.status === 200 ? (exchange.response.json?.data?.action ?? null) : null

/** The id of the task's action with this seq, once the proxy has seen it delivered. */
export function actionIdOf(proxy: FaultProxy, taskId: string, seq: number): string | undefined {
  for (const exchange of proxy.exchanges) {
    const action = actionIn(exchange)
    if (action?.taskId === taskId && action.seq === seq) return action.actionId
  }
  return undefined
}

export const isNextWith = (taskId: string, seq: number) => (exchange: Exchange) => {
  const action = actionIn(exchange)
  return action?.taskId === taskId && action.seq === seq
}

export const isReportOf = (proxy: FaultProxy, taskId: string, seq: number) => (exchange: Exchange) =>
  exchange.path === '/api/agent/report' && exchange.json?.taskId === taskId && exchange.json.actionId === actionIdOf(proxy, taskId, seq)

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

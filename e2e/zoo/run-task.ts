import { followTask } from '../support/follow-task'
import type { Harness } from '../support/harness'
import type { ZooModel } from './model'
import { judge, type ZooSite } from './site'
import type { Task } from './types'

export type Outcome = 'pass' | 'second-look' | 'fail'

export interface TandemResult {
  id: string
  outcome: Outcome
  /** The site got the request the task expects (what a second look still reaches). */
  reached: boolean
  /** Why the verdict failed, from the site's log. */
  why: string
  /** Every second look the run needed: a target not there yet, a retried step, a failed step. */
  looks: string[]
  /** The first step that failed, with its error, and why the model gave up. */
  failure: string
  /** Confirmations the person approved. */
  approved: number
  status: string
  /**
   * Tandem said the goal was met (SUCCEEDED) while the site's log says it was not, or on a step its own observation
   * found without effect: the done that is not true which the zoo's verdicts exist to catch.
   */
  untrue: string
  steps: string[]
  ms: number
}

/** Requests sent just after the last step (an upload's XHR, a form post's landing) still count. */
const TAIL_MS = 400
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Runs one task with the scripted model, approving each confirmation as the person who asked for the task would. */
export async function runTask(h: Harness, site: ZooSite, model: ZooModel, task: Task, timeoutMs: number): Promise<TandemResult> {
  const started = Date.now()
  const from = site.log.length
  model.reset(task.id)
  const start = await h.server.api('POST', '/api/agent/start', { goal: task.goal, clientId: h.clientId, startUrl: site.startUrl(task) })
  if (start.status !== 200) throw new Error(`start failed for ${task.id}: ${JSON.stringify(start.body)}`)
  await h.ext.wake()
  let approved = 0
  const { view, status, timedOut, falseDone } = await followTask(h, start.body.data.taskId, { timeoutMs, reason: 'zoo: the person asked for this', answer: () => (approved++, true) })
  await sleep(TAIL_MS)
  const verdict = judge(task.expect, site.log.slice(from).filter((a) => a.taskId === task.id))
  const steps: { type: string; outcome: string; errors: { code: string; message: string }[] }[] = view?.steps ?? []
  const failed = steps.filter((s) => s.outcome === 'failed' && s.type !== 'waitFor')
  const looks = model.looks(task.id)
  const all = [...looks.waited.map((w) => `waited: ${w}`), ...looks.retried.map((r) => `retried ${r}`)]
  if (!looks.retried.length) all.push(...failed.map((s) => `failed: ${s.type} ${s.errors.map((e) => e.code).join(',')}`))
  const firstFailed = failed[0]
  const failure = [
    firstFailed && `${firstFailed.type} failed: ${firstFailed.errors.map((e) => `${e.code} ${e.message}`).join('; ').slice(0, 300)}`,
    !firstFailed && looks.gaveUp && `model gave up: ${looks.gaveUp.slice(0, 300)}`,
    view?.task?.error && view.task.error.code !== 'GOAL_NOT_MET' && `task ended: ${view.task.error.code} ${String(view.task.error.message).slice(0, 300)}`,
    timedOut && `timed out (${status})`,
  ].filter(Boolean).join(' · ')
  const untrue = status !== 'SUCCEEDED' ? '' : [!verdict.ok && `SUCCEEDED, yet ${verdict.why}`, ...falseDone].filter(Boolean).join(' · ')
  return {
    id: task.id,
    outcome: !verdict.ok ? 'fail' : all.length ? 'second-look' : 'pass',
    reached: verdict.ok,
    why: verdict.why,
    looks: all,
    failure,
    approved,
    status,
    untrue,
    steps: steps.map((s) => `${s.type}:${s.outcome}${s.errors.length ? `:${s.errors.map((e) => e.code).join(',')}` : ''}`),
    ms: Date.now() - started,
  }
}

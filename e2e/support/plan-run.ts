/** One planned task run by Tandem with the shared scripted model; the caller says how its outcome is judged. */
import { followTask } from './follow-task'
import type { Harness } from './harness'
import type { PlanModel, PlannedTask } from './plan-model'

export type Outcome = 'pass' | 'second-look' | 'fail'

export interface TandemResult {
  id: string
  outcome: Outcome
  /** The verdict found the goal reached (what a second look still reaches). */
  reached: boolean
  /** Why the verdict failed. */
  why: string
  /** Every second look the run needed: a target not there yet, a retried step, a failed step. */
  looks: string[]
  /** The first step that failed, with its error, and why the model gave up. */
  failure: string
  /** The plan's step (0-based) the model gave up at, when it did. */
  stoppedAt?: number
  /** Confirmations the person approved. */
  approved: number
  status: string
  /**
   * Tandem said the goal was met (SUCCEEDED) while the verdict says it was not, or on a step its own observation
   * found without effect: the done that is not true which the verdicts exist to catch.
   */
  untrue: string
  steps: string[]
  ms: number
}

export interface Verdict {
  ok: boolean
  why: string
}

export interface PlannedRun {
  startUrl: string
  timeoutMs: number
  /** Said with each approval, as the person would ("zoo: the person asked for this"). */
  reason: string
  /** The verdict, read once the task has ended: from what reached the site, or from the page's state. */
  judge: () => Promise<Verdict>
}

/** Runs one task with the scripted model, approving each confirmation as the person who asked for the task would. */
export async function runPlanned(h: Harness, model: PlanModel, task: PlannedTask, run: PlannedRun): Promise<TandemResult> {
  const started = Date.now()
  model.reset(task.id)
  const start = await h.server.api('POST', '/api/agent/start', { goal: task.goal, clientId: h.clientId, startUrl: run.startUrl })
  if (start.status !== 200) throw new Error(`start failed for ${task.id}: ${JSON.stringify(start.body)}`)
  await h.ext.wake()
  let approved = 0
  const { view, status, timedOut, falseDone } = await followTask(h, start.body.data.taskId, { timeoutMs: run.timeoutMs, reason: run.reason, answer: () => (approved++, true) })
  const verdict = await run.judge()
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
    ...(looks.stoppedAt !== undefined ? { stoppedAt: looks.stoppedAt } : {}),
    approved,
    status,
    untrue,
    steps: steps.map((s) => `${s.type}:${s.outcome}${s.errors.length ? `:${s.errors.map((e) => e.code).join(',')}` : ''}`),
    ms: Date.now() - started,
  }
}

import type { Harness } from '../support/harness'
import { runPlanned, type TandemResult } from '../support/plan-run'
import type { ZooModel } from './model'
import { judge, type ZooSite } from './site'
import type { Task } from './types'

export type { Outcome, TandemResult } from '../support/plan-run'

/** Requests sent just after the last step (an upload's XHR, a form post's landing) still count. */
const TAIL_MS = 400
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Runs one zoo task with the scripted model; the verdict is what reached the zoo site for it. */
export function runTask(h: Harness, site: ZooSite, model: ZooModel, task: Task, timeoutMs: number): Promise<TandemResult> {
  const from = site.log.length
  return runPlanned(h, model, task, {
    startUrl: site.startUrl(task),
    timeoutMs,
    reason: 'zoo: the person asked for this',
    judge: async () => (await sleep(TAIL_MS), judge(task.expect, site.log.slice(from).filter((a) => a.taskId === task.id))),
  })
}

import { judge, type Verdict } from './checks'
import { INJECT, type Struck } from './inject'
import { planRunTask, sleep, startRunTask, TERMINAL, type FaultRig } from './rig'
import type { RunPlan } from './schedule'

export interface RunRecord {
  plan: RunPlan
  taskId: string
  verdict: Verdict
  /** Where a stopped worker really was, when the plan aimed at a phase it can slip past. */
  landed?: string
  /** Why the fault could not be put where the plan said. */
  misplaced?: string
  /** How long the whole run took, checks included. */
  ms: number
}

/** Closes every tab but the extension's own pages: each run opens its task in a new tab. */
async function tidy(rig: FaultRig) {
  for (const page of rig.h.ext.context.pages()) {
    if (!page.url().startsWith('chrome-extension://')) await page.close().catch(() => undefined)
  }
}

/** One run: a task on the tally page, one fault at its phase, recovery, then the verdict. */
export async function runOne(rig: FaultRig, plan: RunPlan): Promise<RunRecord> {
  const began = Date.now()
  const task = planRunTask(rig, plan)
  const begin = async () => {
    if (!task.taskId) await startRunTask(rig, task)
    await rig.h.ext.wake()
  }
  let struck: Struck
  let misplaced: string | undefined
  try {
    struck = await INJECT[plan.kind][plan.phase]({ rig, plan, task, begin })
  } catch (error) {
    misplaced = (error as Error).message
    struck = { faultAt: null, direct: [], problems: [] }
  }
  // An injector that failed before it started the task: the run still gets its verdict.
  if (!task.taskId) await begin()
  let status: Verdict['status']
  try {
    status = (await rig.h.waitFor(task.taskId, TERMINAL, 60_000)).task.status
  } catch {
    status = 'STUCK'
    // Free the extension for the next run.
    await rig.h.server.api('POST', '/api/agent/cancel', { taskId: task.taskId, reason: 'stuck in a fault run' })
  }
  // The page's last hit may still be on its way to the fixture server.
  const mine = () => rig.h.site.hits.filter((hit) => hit.startsWith(`${task.id}:`)).length
  for (let waited = 0; waited < 200 && (status !== 'SUCCEEDED' || mine() < task.expectedHits.length); waited += 25) await sleep(25)
  const verdict = await judge(rig, task, struck, status)
  await tidy(rig)
  return { plan, taskId: task.taskId, verdict, ms: Date.now() - began, ...(struck.landed ? { landed: struck.landed } : {}), ...(misplaced ? { misplaced } : {}) }
}

import { judge, type Verdict } from './checks'
import { INJECT, type Struck } from './inject'
import type { FaultProxy, HoldRule } from './proxy'
import { planRunTask, sleep, startRunTask, TERMINAL, within, type FaultRig } from './rig'
import type { RunPlan } from './schedule'

export interface RunRecord {
  plan: RunPlan
  taskId: string
  verdict: Verdict
  /** Where a stopped worker really was, when the plan aimed at a phase it can slip past. */
  landed?: string
  /** Why the fault could not be put where the plan said. */
  misplaced?: string
  /** How long the extension waited on a hung call before it gave up by itself. */
  gaveUpMs?: number
  /** How long the whole run took, checks included. */
  ms: number
}

/** Closes every tab but the extension's own pages: each run opens its task in a new tab. */
async function tidy(rig: FaultRig) {
  for (const page of rig.h.ext.context.pages()) {
    if (!page.url().startsWith('chrome-extension://')) await page.close().catch(() => undefined)
  }
}

/**
 * The proxy as one run's injector sees it: every hold it lays is kept here, and the run lets go of all of them
 * once the injector is done, struck or not. A hold left behind keeps the extension waiting on that call, and
 * with it every later run.
 */
function holdsOfRun(proxy: FaultProxy) {
  const rules: HoldRule[] = []
  const kept = (rule: HoldRule) => (rules.push(rule), rule)
  return {
    proxy: { ...proxy, holdRequest: (match) => kept(proxy.holdRequest(match)), holdResponse: (match) => kept(proxy.holdResponse(match)) } satisfies FaultProxy,
    /** Stops the rules still waiting for a match, and lets what they hold go on its way. */
    letGo() {
      for (const rule of rules.splice(0)) rule.cancel()
    },
  }
}

/**
 * Past this an injector has failed, whatever it still waits for: meeting the call it aims at (45 s at most), then
 * for a hung call the extension's own deadline (GIVE_UP_MS), with room to spare.
 */
const PLACE_LIMIT_MS = 150_000

/** One run: a task on the tally page, one fault at its phase, recovery, then the verdict. */
export async function runOne(rig: FaultRig, plan: RunPlan): Promise<RunRecord> {
  const began = Date.now()
  const task = planRunTask(rig, plan)
  const holds = holdsOfRun(rig.proxy)
  const begin = async () => {
    if (!task.taskId) await startRunTask(rig, task)
    await rig.h.ext.wake()
  }
  let struck: Struck
  let misplaced: string | undefined
  try {
    struck = await within(INJECT[plan.kind][plan.phase]({ rig: { ...rig, proxy: holds.proxy }, plan, task, begin }), 'the fault to be placed', PLACE_LIMIT_MS)
  } catch (error) {
    misplaced = (error as Error).message
    struck = { faultAt: null, direct: [], problems: [] }
  } finally {
    // Whatever the injector did not let go of goes on now: the run ends without a fault if it was not placed.
    holds.letGo()
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
  return { plan, taskId: task.taskId, verdict, ms: Date.now() - began, ...(struck.landed ? { landed: struck.landed } : {}), ...(struck.gaveUpMs === undefined ? {} : { gaveUpMs: struck.gaveUpMs }), ...(misplaced ? { misplaced } : {}) }
}

import { judge } from './checks'
import { isReportOf, createRunTask, TERMINAL, within, type FaultRig } from './rig'
import type { RunRecord } from './run-one'
import type { RunPlan } from './schedule'

/**
 * The server unreachable for a while (the proxy cuts every connection), struck while the task's report of its
 * wait is on its way. Nobody wakes the extension: it must come back by its own back-off and alarm. Recovery is
 * timed from the end of the outage.
 */
export async function runOutage(rig: FaultRig, index: number, outageMs: number): Promise<RunRecord> {
  const began = Date.now()
  const plan: RunPlan = { index, kind: 'server-unreachable', phase: 'outage', seq: 3, readyMs: 0, jitterMs: 0 }
  const task = await createRunTask(rig, plan)
  const rule = rig.proxy.holdRequest(isReportOf(rig.proxy, task, plan.seq))
  await rig.h.ext.wake()
  const report = await within(rule.held, 'the report of the wait', 45_000)
  rig.proxy.setDown(true)
  report.drop()
  await new Promise((r) => setTimeout(r, outageMs))
  rig.proxy.setDown(false)
  const upAt = Date.now()
  let status: RunRecord['verdict']['status']
  try {
    // The back-off doubles from 30 s and the alarm fires every 30 s: allow for both, and then some.
    status = (await rig.h.waitFor(task.taskId, TERMINAL, 180_000)).task.status
  } catch {
    status = 'STUCK'
  }
  const verdict = await judge(rig, task, { faultAt: upAt, direct: [], problems: [] }, status)
  return { plan, taskId: task.taskId, verdict, ms: Date.now() - began }
}

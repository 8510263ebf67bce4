import type { TaskStatus } from '#protocol'
import { updateActivity } from '../executor/state'
import { indicatorStateFor } from '../indicator/state'
import type { Attention } from './attention'
import type { DebuggerHold } from './debugger-hold'
import type { IndicatorSync } from './indicator-sync'
import type { TaskOrder } from './task-order'

/** Follows one status; `place` is where its answer stands in the task's order (see createTaskOrder), if it was admitted there. */
export type FollowStatus = (taskId: string | null, status: TaskStatus | null, place?: number) => Promise<void>

/**
 * What follows each task status the worker sees: the badge, the takeover note in Activity, the indicator, and the
 * debugger on the task's tab.
 */
export function followStatus(deps: {
  attention: Pick<Attention, 'seen'>
  indicator: Pick<IndicatorSync, 'show'>
  order: Pick<TaskOrder, 'current'>
  debugger?: Pick<DebuggerHold, 'follow'>
}): FollowStatus {
  return async (taskId, status, place) => {
    await deps.attention.seen(taskId, status)
    // A newer answer (the person's takeover) may land while this one is followed: it wins, here and in the page.
    const newest = () => !taskId || place === undefined || deps.order.current(taskId, place)
    if (newest()) await deps.debugger?.follow(taskId, status).catch((error: unknown) => console.warn('[tandem] letting go of the task tab failed', error))
    if (!taskId) return
    // Resumed or stopped from anywhere (the panel, the console): the takeover is over.
    if (status !== 'PAUSED')
      await updateActivity((activity) => (activity.takeover?.taskId === taskId && newest() ? { takeover: null } : {}))
    await deps.indicator.show(taskId, indicatorStateFor(status), newest, { changed: true })
  }
}

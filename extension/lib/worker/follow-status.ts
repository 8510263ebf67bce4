import type { TaskStatus } from '#protocol'
import { activityItem, updateActivity } from '../executor/state'
import { indicatorStateFor } from '../indicator/state'
import type { Attention } from './attention'
import type { IndicatorSync } from './indicator-sync'

/** What follows each task status the worker sees: the badge, the takeover note in Activity, the indicator. */
export function followStatus(deps: { attention: Pick<Attention, 'seen'>; indicator: Pick<IndicatorSync, 'show'> }) {
  return async (taskId: string | null, status: TaskStatus | null): Promise<void> => {
    await deps.attention.seen(taskId, status)
    if (!taskId) return
    // Resumed or stopped from anywhere (the panel, the console): the takeover is over.
    if (status !== 'PAUSED' && (await activityItem.getValue())?.takeover?.taskId === taskId) await updateActivity({ takeover: null })
    await deps.indicator.show(taskId, indicatorStateFor(status))
  }
}

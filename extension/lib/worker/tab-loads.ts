import { isTerminal } from '#protocol'
import { readState, type ExecutorState } from '../executor/state'
import { indicatorStateFor } from '../indicator/state'
import { taskOfTab, type IndicatorSync } from './indicator-sync'
import type { TaskOrder } from './task-order'

export interface TabLoadsDeps {
  order: Pick<TaskOrder, 'known'>
  indicator: Pick<IndicatorSync, 'show' | 'forget'>
  /** Asks the server for the task's status and follows it: for a task this worker holds no status of yet. */
  refresh: (taskId: string) => Promise<unknown>
  readState?: () => Promise<ExecutorState>
}

/**
 * A new document in a task tab (the person navigated it, or reloaded it) has no indicator, and the task's
 * status may not change for a long while (a paused task waits for the person). Each load of a tab that belongs
 * to a live task shows the bar again; other tabs are never touched, and the indicator sync only starts Tandem
 * where it may act.
 */
export function createTabLoads(deps: TabLoadsDeps) {
  const read = deps.readState ?? readState

  async function loaded(tabId: number): Promise<void> {
    const taskId = taskOfTab(await read(), tabId)
    if (!taskId) return
    const status = deps.order.known(taskId)
    if (!status) return void (await deps.refresh(taskId))
    if (isTerminal(status)) return
    // Still the newest when the page is told: a change meanwhile shows itself.
    await deps.indicator.show(taskId, indicatorStateFor(status), () => deps.order.known(taskId) === status)
  }

  return {
    loaded,
    /** A tabs.onUpdated listener. */
    onUpdated(tabId: number, change: { status?: string }): void {
      if (change.status === 'loading') deps.indicator.forget(tabId)
      if (change.status !== 'complete') return
      loaded(tabId).catch((error: unknown) => console.warn('[tandem] could not show the indicator again', error))
    },
  }
}
export type TabLoads = ReturnType<typeof createTabLoads>

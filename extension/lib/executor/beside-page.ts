import type { Action, ObservationInput, TaskTabView, UnreachedFrame } from '#protocol'
import type { ExecutorState, TaskTab } from './state'
import type { TabsApi } from './task-tab'
import { numberOf, ownedTabs, withoutTab } from './task-tabs'

/** What an observation says beside the page it read: the task's other tabs, and the frames it could not read. */

export interface BesideDeps {
  tabs: Pick<TabsApi, 'get'>
  state: ExecutorState
  taskTabs?: {
    read(taskId: string): Promise<TaskTab | undefined>
    change(taskId: string, change: (task: TaskTab) => TaskTab): Promise<TaskTab | undefined>
  }
  unreachedFrames?: (tabId: number) => Promise<UnreachedFrame[]>
}

/**
 * The page's frames from other origins, when its elements were read: the model hears what it cannot see. `task`: the
 * task's tabs as they are now.
 */
export async function unreached(deps: BesideDeps, action: Action, observation: ObservationInput, task: TaskTab | undefined): Promise<UnreachedFrame[]> {
  if (!deps.unreachedFrames || !observation.elementTree) return []
  const tabId = task?.tabId ?? deps.state.tasks[action.taskId]?.tabId
  if (tabId === undefined) return []
  return deps.unreachedFrames(tabId).catch(() => [])
}

/**
 * The task's tabs beside its page, when it has more than one (or the step changed tabs); tabs the person closed
 * are no longer the task's. `known`: the task's tabs as they are now.
 */
export async function tabsBeside(deps: BesideDeps, action: Action, opened: number | null, known: TaskTab | undefined): Promise<TaskTabView[] | null> {
  let task = known
  if (!task || task.closed) return null
  const views: TaskTabView[] = []
  for (const owned of ownedTabs(task)) {
    const tab = await deps.tabs.get(owned.tabId).catch(() => null)
    if (!tab) {
      task = (await deps.taskTabs!.change(action.taskId, (t) => withoutTab(t, owned.tabId))) ?? task
      continue
    }
    views.push({ tab: owned.tab, url: tab.url ?? tab.pendingUrl ?? '', title: tab.title ?? '', active: false, ...(opened === owned.tabId ? { opened: true } : {}) })
  }
  const current = numberOf(task, task.tabId)
  for (const view of views) view.active = view.tab === current
  const changedTabs = opened !== null || action.type === 'switch_tab' || action.type === 'close_tab'
  return views.length > 1 || (changedTabs && views.length) ? views : null
}

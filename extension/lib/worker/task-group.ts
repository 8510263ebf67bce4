import type { WxtBrowser as Browser } from 'wxt/browser'
import type { TaskTab } from '../executor/state'
import { ownedTabs } from '../executor/task-tabs'

export interface TaskGroupDeps {
  tabs: Pick<Browser['tabs'], 'group'>
  tabGroups: Pick<Browser['tabGroups'], 'update'>
  /** The task's name, as the person gave it (its goal); null when the server cannot say. */
  name: (taskId: string) => Promise<string | null>
  taskTabs: {
    read(taskId: string): Promise<TaskTab | undefined>
    change(taskId: string, change: (task: TaskTab) => TaskTab): Promise<TaskTab | undefined>
  }
}

const TITLE_CHARS = 40

/** The group's title: the task's name, short enough for the tab strip. */
export const groupTitle = (name: string | null) => {
  const line = (name ?? '').replace(/\s+/g, ' ').trim()
  if (!line) return 'Tandem'
  return line.length <= TITLE_CHARS ? line : `${line.slice(0, TITLE_CHARS - 1)}…`
}

/**
 * Keeps a task's tabs together in one tab group titled with the task's name, so the person sees which tabs the
 * task opened (and owns). A tab in a popup window cannot be grouped: it stays the task's all the same.
 */
export function createTaskGroup(deps: TaskGroupDeps) {
  const names = new Map<string, string>()
  return async (taskId: string): Promise<void> => {
    const task = await deps.taskTabs.read(taskId)
    if (!task || task.closed) return
    const tabIds = ownedTabs(task).map((t) => t.tabId) as [number, ...number[]]
    if (tabIds.length < 2) return
    let groupId: number
    try {
      groupId = await deps.tabs.group(task.group === undefined ? { tabIds } : { tabIds, groupId: task.group })
    } catch {
      // The group the task had is gone (the person ungrouped its tabs): a new one.
      groupId = await deps.tabs.group({ tabIds })
    }
    if (!names.has(taskId)) names.set(taskId, groupTitle(await deps.name(taskId).catch(() => null)))
    await deps.tabGroups.update(groupId, { title: names.get(taskId)!, collapsed: false })
    if (task.group !== groupId) await deps.taskTabs.change(taskId, (t) => ({ ...t, group: groupId }))
  }
}

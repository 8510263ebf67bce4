import type { TaskTab } from './state'

/**
 * The tabs a task owns: the one it started in and every tab its pages opened while a step ran (a link with
 * target=_blank, window.open). Each gets a small number for the task, the one the model names in switch_tab and
 * close_tab: numbers follow the order the tabs were opened in and are never reused, so a number the model read
 * two steps ago still means the same tab (or none). `tabId` stays the tab the task is in now.
 */

export interface OwnedTab {
  tabId: number
  /** The tab's number within the task. */
  tab: number
  /** The task tab whose page opened it: where the task goes back to when it is closed. */
  opener?: number
}

/** The task's tabs, the first one included (a task stored before tabs were tracked owns just that one). */
export function ownedTabs(task: TaskTab): OwnedTab[] {
  return task.tabs?.length ? task.tabs : [{ tabId: task.tabId, tab: 1 }]
}

export const numberOf = (task: TaskTab, tabId: number): number | undefined => ownedTabs(task).find((t) => t.tabId === tabId)?.tab

export const tabIdOf = (task: TaskTab, tab: number): number | undefined => ownedTabs(task).find((t) => t.tab === tab)?.tabId

export const ownsTab = (task: TaskTab, tabId: number): boolean => numberOf(task, tabId) !== undefined

const nextNumber = (owned: OwnedTab[]) => Math.max(0, ...owned.map((t) => t.tab)) + 1

/** Adds tabs a task tab's page opened (ones already owned keep their number). */
export function withOpened(task: TaskTab, opened: readonly { tabId: number; opener: number }[]): TaskTab {
  const owned = [...ownedTabs(task)]
  for (const { tabId, opener } of opened) {
    if (owned.some((t) => t.tabId === tabId)) continue
    owned.push({ tabId, tab: Math.max(nextNumber(owned), task.nextTab ?? 0), opener })
  }
  return { ...task, tabs: owned, nextTab: nextNumber(owned) }
}

/** The task now works in `tabId`, one of its own tabs. */
export function movedTo(task: TaskTab, tabId: number): TaskTab {
  return ownsTab(task, tabId) ? { ...task, tabs: ownedTabs(task), tabId } : task
}

/**
 * The task without `tabId` (closed, by the task or the person). When that was the tab it worked in, it moves to
 * the tab that opened it, else to the newest one left; with none left the task's tab is closed.
 */
export function withoutTab(task: TaskTab, tabId: number): TaskTab {
  const owned = ownedTabs(task)
  const gone = owned.find((t) => t.tabId === tabId)
  if (!gone) return task
  const left = owned.filter((t) => t.tabId !== tabId)
  const nextTab = Math.max(task.nextTab ?? 0, nextNumber(owned))
  if (!left.length) return { ...task, tabs: [gone], nextTab, closed: true }
  if (task.tabId !== tabId) return { ...task, tabs: left, nextTab }
  const to = left.find((t) => t.tabId === gone.opener) ?? left[left.length - 1]!
  return { ...task, tabs: left, nextTab, tabId: to.tabId }
}

/** A new task in `tabId`: its first tab, numbered 1. */
export const firstTab = (tabId: number, at: number): TaskTab => ({ tabId, closed: false, at, tabs: [{ tabId, tab: 1 }], nextTab: 2 })

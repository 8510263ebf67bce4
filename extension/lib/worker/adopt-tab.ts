import { updateState } from '../executor/state'

/**
 * Makes `tabId` the task's tab, as the panel asks when a task starts in the current tab. A task that already
 * has a tab keeps it: the worker may have adopted one for its first step, and a task never changes tabs.
 */
export async function adoptTaskTab(tabs: { get(tabId: number): Promise<{ url?: string }> }, taskId: string, tabId: number, now = Date.now): Promise<boolean> {
  const tab = await tabs.get(tabId).catch(() => null)
  if (!tab?.url || !/^https?:/.test(tab.url)) return false
  let adopted = false
  await updateState((state) => {
    const known = state.tasks[taskId]
    if (known) {
      adopted = known.tabId === tabId && !known.closed
      return state
    }
    adopted = true
    return { ...state, tasks: { ...state.tasks, [taskId]: { tabId, closed: false, at: now() } } }
  })
  return adopted
}

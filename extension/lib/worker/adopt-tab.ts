import { updateState } from '../executor/state'

/**
 * Makes `tabId` the task's tab, as the panel asks when a task starts in the current tab. A task that already
 * has a tab keeps it: the worker may have adopted one for its first step (a task changes tabs only to the tabs its own
 * pages opened, see task-tabs.ts).
 */
export async function adoptTaskTab(tabs: { get(tabId: number): Promise<{ url?: string }> }, taskId: string, tabId: number, now = Date.now): Promise<boolean> {
  const tab = await tabs.get(tabId).catch(() => null)
  const usable = !!tab?.url && /^https?:/.test(tab.url)
  let adopted = false
  // Either way the promise of a tab is kept or broken now: a step waiting for it goes on.
  await updateState(({ coming: _, ...state }) => {
    const known = state.tasks[taskId]
    if (known || !usable) {
      adopted = !!known && known.tabId === tabId && !known.closed
      return state
    }
    adopted = true
    return { ...state, tasks: { ...state.tasks, [taskId]: { tabId, closed: false, at: now() } } }
  })
  return adopted
}

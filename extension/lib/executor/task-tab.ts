import type { Browser as Chrome, WxtBrowser as Browser } from 'wxt/browser'
import type { Action, ObservationError } from '#protocol'
import type { ExecutorState } from './state'

export type Tab = Chrome.tabs.Tab
export type TabsApi = Pick<Browser['tabs'], 'get' | 'query' | 'create' | 'update' | 'goBack' | 'captureVisibleTab' | 'sendMessage' | 'remove'>

export type TaskTabChoice =
  | { kind: 'tab'; tab: Tab & { id: number } }
  /** The task has no tab yet: a navigate opens one, anything else adopts the active tab. */
  | { kind: 'none' }
  | { kind: 'error'; error: ObservationError }

export const tabClosed = (): ObservationError => ({
  code: 'TASK_TAB_CLOSED',
  message: "The task's tab was closed; start the task again to give it a new tab.",
})

const closed = (): TaskTabChoice => ({ kind: 'error', error: tabClosed() })

/** The tab a task acts in; actions aimed at any other tab are refused. */
export async function findTaskTab(tabs: TabsApi, action: Action, state: ExecutorState): Promise<TaskTabChoice> {
  const known = state.tasks[action.taskId]
  const asked = action.params.tabId
  if (known && asked !== undefined && asked !== known.tabId) {
    return { kind: 'error', error: { code: 'INVALID_TASK_TAB', message: 'That tab does not belong to this task; Tandem acts only in the task tab.' } }
  }
  if (!known) {
    if (asked !== undefined) return { kind: 'error', error: { code: 'INVALID_TASK_TAB', message: 'This task has no tab yet; Tandem does not take over a tab by number.' } }
    return { kind: 'none' }
  }
  if (known.closed) return closed()
  const tab = await tabs.get(known.tabId).catch(() => null)
  if (!tab || tab.id === undefined) return closed()
  return { kind: 'tab', tab: tab as Tab & { id: number } }
}

/** The tab the person is looking at, for a task that starts without a URL. */
export async function activeTab(tabs: TabsApi): Promise<(Tab & { id: number }) | null> {
  const [tab] = await tabs.query({ active: true, lastFocusedWindow: true })
  return tab?.id === undefined ? null : (tab as Tab & { id: number })
}

import type { WxtBrowser as Browser } from 'wxt/browser'
import type { ContentChannel } from '../executor/content-channel'
import { checkSiteAccess } from '../executor/site-access'
import { readState, type ExecutorState } from '../executor/state'
import type { TabsApi } from '../executor/task-tab'
import type { IndicatorState } from '../indicator/state'
import type { StopWhy } from '../messages'

export interface IndicatorSyncDeps {
  tabs: Pick<TabsApi, 'get'>
  permissions: Pick<Browser['permissions'], 'contains'>
  content: Pick<ContentChannel, 'ask' | 'ensure'>
  serverUrl: () => Promise<string>
  readState?: () => Promise<ExecutorState>
}

/** The open tab a task acts in, if it has one. */
export function tabOfTask(state: ExecutorState, taskId: string): number | null {
  const known = state.tasks[taskId]
  return known && !known.closed ? known.tabId : null
}

/** The task that owns a tab: the latest one that took it. */
export function taskOfTab(state: ExecutorState, tabId: number): string | null {
  const owners = Object.entries(state.tasks).filter(([, t]) => t.tabId === tabId && !t.closed)
  owners.sort(([, a], [, b]) => b.at - a.at)
  return owners[0]?.[0] ?? null
}

/**
 * Shows a task's state in its tab. A page that has no content script yet (a new document after a navigation)
 * gets one when the agent or the person is in control there, or the task waits for the person, so the person sees who has the page and can
 * take it over; never on a page Tandem may not act on. Failures are ignored: the next change tries again.
 */
export function createIndicatorSync(deps: IndicatorSyncDeps) {
  const read = deps.readState ?? readState
  /** What each tab's page was last told (by this worker); forgotten whenever the page may have changed. */
  const shown = new Map<number, IndicatorState>()
  return {
    /**
     * `newest` says whether the state is still the task's newest, asked last before the page is told. `changed`:
     * only when the tab shows something else (a task's status followed after every step mostly says the same; a
     * new document is shown its state as it loads, see createTabLoads).
     */
    async show(taskId: string, state: IndicatorState, newest: () => boolean = () => true, opts: { changed?: boolean } = {}): Promise<void> {
      const tabId = tabOfTask(await read(), taskId)
      if (tabId === null) return
      if (opts.changed && shown.get(tabId) === state) return
      shown.delete(tabId)
      const tab = await deps.tabs.get(tabId).catch(() => null)
      // A loading tab is between documents: the next change reaches the new one.
      if (!tab || tab.status !== 'complete') return
      try {
        if (state !== 'idle' && state !== 'hidden') {
          if (await checkSiteAccess(deps.permissions, tab.url, await deps.serverUrl())) return
          await deps.content.ensure(tabId)
        }
        if (!newest()) return
        await deps.content.ask(tabId, { kind: 'indicator', state }, 2000)
        shown.set(tabId, state)
      } catch {
        // no page to show it in
      }
    },
    /**
     * What the tab's page shows is no longer what it was told: it is loading another document, or it showed the
     * answer to one of its own events (a takeover).
     */
    forget(tabId: number): void {
      shown.delete(tabId)
    },
    /** Ends the action the task is running in its tab, if any, saying why; true when the page had one to end. */
    async stopAction(taskId: string, why: StopWhy = 'stopped'): Promise<boolean> {
      const state = await read()
      const tabId = tabOfTask(state, taskId)
      if (tabId === null || state.inflight?.taskId !== taskId || state.inflight.phase !== 'started') return false
      const reply = await deps.content.ask(tabId, { kind: 'stop', actionId: state.inflight.actionId, why }, 2000).catch(() => null)
      return reply?.stopped ?? false
    },
  }
}
export type IndicatorSync = ReturnType<typeof createIndicatorSync>

import type { WxtBrowser as Browser } from 'wxt/browser'
import type { UnreachedFrame } from '#protocol'
import type { ActOutcome } from '../../messages'
import type { BesideDeps } from '../beside-page'
import type { ContentChannel } from '../content-channel'
import type { NavigationGuard } from '../navigation-guard'
import type { NavigationWatch } from '../navigation-watch'
import type { OpenedWatch } from '../opened-tabs'
import type { Screenshotter } from '../screenshot'
import type { ExecutorState } from '../state'
import type { StepTail } from '../step-tail'
import type { TabsApi } from '../task-tab'
import type { WriteBarrier } from '../write-barrier'
import type { WriteBlock } from '../write-block'

export interface RunDeps {
  tabs: TabsApi
  permissions: Pick<Browser['permissions'], 'contains' | 'getAll'>
  content: Pick<ContentChannel, 'ask' | 'ensure'>
  screenshots: Screenshotter
  serverUrl: string
  state: ExecutorState
  /** Marks the action as possibly done, before anything reaches the page or the tab (see InFlight.phase). */
  touching: () => Promise<void>
  /** Persists the task's tab the moment it exists, before anything runs in it. */
  rememberTab: (taskId: string, tabId: number) => Promise<void>
  /**
   * The task's tabs as stored (read, and changed in one read-modify-write): the tabs its pages open become its
   * own, switch_tab and close_tab move it. Without it a task keeps to one tab.
   */
  taskTabs?: BesideDeps['taskTabs']
  /** Watches the tabs the task's pages open while a step runs (webNavigation.onCreatedNavigationTarget). */
  watchOpened?: (from: readonly number[]) => OpenedWatch
  /** Puts the task's tabs in one tab group under the task's name, once it has more than one. */
  groupTabs?: (taskId: string) => Promise<void>
  /** The frames of a tab's page the content script did not read (other origins). */
  unreachedFrames?: (tabId: number) => Promise<UnreachedFrame[]>
  resultKey: (actionId: string) => `local:tandem.result.${string}`
  readResult: (actionId: string) => Promise<ActOutcome | null>
  loadTimeoutMs?: number
  /** Holds the task tab on granted sites while the action runs (see createNavigationGuard); the caller releases it. */
  guard?: Pick<NavigationGuard, 'engage' | 'quiet' | 'navigating' | 'refusals'>
  /** Holds the writes a step the person did not approve sends (see createWriteBarrier). */
  barrier?: Pick<WriteBarrier, 'sockets' | 'leaked' | 'engage' | 'waitForHold' | 'documents' | 'dropped' | 'allowed' | 'harmless' | 'held' | 'stepEnded' | 'release' | 'refuse' | 'rest'>
  /** The barrier's fallback when the debugger cannot be had: writes are blocked, and the step asks and runs again. */
  block?: Pick<WriteBlock, 'engage' | 'blocked' | 'popups' | 'release'>
  /** Watches a navigate step's page come up: a network error or an HTTP error fails the step itself. */
  watchNavigation?: () => NavigationWatch
  /** How long after an in-page action is sent a navigation its page script starts (a timer, a refresh) is waited for. */
  navigationGraceMs?: number
  /**
   * Keeps the guard and the barrier on for the rest of that time after the step is reported, instead of waiting it
   * out; the task's next step first hears what it caught. Without it the step waits.
   */
  tail?: Pick<StepTail, 'begin' | 'end'>
  now?: () => number
}

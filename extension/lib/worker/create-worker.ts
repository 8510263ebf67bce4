import { storage } from 'wxt/utils/storage'
import type { WxtBrowser as Browser } from 'wxt/browser'
import { createContentChannel } from '../executor/content-channel'
import { createContentRegistration } from './content-registration'
import { createTabDebugger } from '../executor/debugger'
import { createExecutor } from '../executor/executor'
import { createNavigationGuard } from '../executor/navigation-guard'
import { watchNavigation } from '../executor/navigation-watch'
import { runAction } from '../executor/run-action'
import { createScreenshotter } from '../executor/screenshot'
import { createStepTail } from '../executor/step-tail'
import { createTrustedInput } from '../executor/trusted-input'
import { createWriteBarrier } from '../executor/write-barrier'
import { createWriteBlock } from '../executor/write-block'
import { resultKey, readResult, readState, updateState, type TaskTab } from '../executor/state'
import { watchOpenedTabs } from '../executor/opened-tabs'
import { unreachedFrames } from '../executor/unreached-frames'
import { createGrantedFrames } from '../executor/granted-frames'
import { firstTab } from '../executor/task-tabs'
import { createTaskGroup } from './task-group'
import { createServerClient } from '../server/client'
import { barrierItem, ensureClientId, watchedSettings } from '../settings'
import { createAttention } from './attention'
import { createDebuggerHold } from './debugger-hold'
import { followStatus } from './follow-status'
import { createIndicatorSync } from './indicator-sync'
import { createPanelPresence } from './panel-presence'
import { createTakeover } from './takeover'
import { createTabLoads } from './tab-loads'
import { createTaskChanges } from './task-changes'
import { createTaskOrder } from './task-order'
import type { StopWhy } from '../messages'

export const POLL_ALARM = 'tandem.poll'
export const CONTENT_SCRIPT = '/content-scripts/content.js'
export const PAGE_WORLD_SCRIPT = '/content-scripts/listeners.js'

export type WorkerBrowser = Pick<
  Browser,
  | 'tabs'
  | 'permissions'
  | 'scripting'
  | 'runtime'
  | 'alarms'
  | 'action'
  | 'notifications'
  | 'windows'
  | 'sidePanel'
  | 'declarativeNetRequest'
  | 'webNavigation'
  | 'debugger'
  | 'webRequest'
  | 'tabGroups'
>

/** Everything the service worker runs, assembled over one `browser`. */
export function createWorker(browser: WorkerBrowser, locale: string | undefined = globalThis.navigator?.language) {
  const content = createContentChannel({ tabs: browser.tabs, scripting: browser.scripting, file: CONTENT_SCRIPT, pageWorldFile: PAGE_WORLD_SCRIPT })
  const registration = createContentRegistration({ scripting: browser.scripting, permissions: browser.permissions, file: CONTENT_SCRIPT, pageWorldFile: PAGE_WORLD_SCRIPT })
  // Steps read and act in the cross-origin frames of granted sites too; everything else talks to the page alone.
  const framed = createGrantedFrames({
    channel: content,
    webNavigation: browser.webNavigation,
    permissions: browser.permissions,
    store: {
      get: (tabId) => storage.getItem(`session:tandem.frames.${tabId}`),
      set: (tabId, frames) => storage.setItem(`session:tandem.frames.${tabId}`, frames),
    },
  })
  const tabDebugger = createTabDebugger({ debugger: browser.debugger })
  // Listens to chrome.debugger.onEvent: created while the worker starts, so the event that woke it is delivered.
  const barrier = createWriteBarrier({ debugger: tabDebugger, events: browser.debugger.onEvent })
  const debuggerHold = createDebuggerHold({ debugger: tabDebugger, barrier, tabs: browser.tabs })
  const writeBlock = createWriteBlock({ declarativeNetRequest: browser.declarativeNetRequest, blocked: browser.webRequest.onErrorOccurred as never })
  // Clicks and keys the page asks for while a step runs, as trusted input (see onInputRequest).
  const input = createTrustedInput({ debugger: tabDebugger, events: browser.debugger.onEvent, zoom: (tabId) => browser.tabs.getZoom(tabId) })
  const screenshots = createScreenshotter({ tabs: browser.tabs, content: framed, debugger: tabDebugger })
  const settings = watchedSettings()
  let clientId: string | null = null
  const server = createServerClient({
    settings,
    // Made once and never changed (see ensureClientId): asked for before every call, read once.
    clientId: async () => (clientId ??= await ensureClientId()),
    version: browser.runtime.getManifest().version,
  })
  const serverUrl = async () => (await settings()).serverUrl
  const presence = createPanelPresence(browser.runtime, browser.runtime.getURL('/'))
  const attention = createAttention({
    action: browser.action,
    notifications: browser.notifications,
    tabs: browser.tabs,
    windows: browser.windows,
    sidePanel: browser.sidePanel,
    server,
    panelOpen: presence.isOpen,
    locale,
  })
  const indicator = createIndicatorSync({ tabs: browser.tabs, permissions: browser.permissions, content, serverUrl })
  const guard = createNavigationGuard({
    declarativeNetRequest: browser.declarativeNetRequest,
    permissions: browser.permissions,
    webNavigation: browser.webNavigation,
    serverUrl,
  })
  const tail = createStepTail({ barrier, guard })
  // The person taking over, or a task stopped from anywhere, gets the tab back at once, mid-step or not: a takeover
  // ends the step as taken over and keeps the task's hold for its resume, a stop lets go of the tab for good.
  const stopAction = async (taskId: string, why: StopWhy = 'stopped') => {
    await tail.end(null)
    await guard.release()
    const stopped = await indicator.stopAction(taskId, why)
    await (why === 'taken-over' ? debuggerHold.handBack(taskId) : debuggerHold.end(taskId))
    return stopped
  }
  const taskTabs = {
    read: async (taskId: string) => (await readState()).tasks[taskId],
    change: async (taskId: string, change: (task: TaskTab) => TaskTab) =>
      (await updateState((s) => (s.tasks[taskId] ? { ...s, tasks: { ...s.tasks, [taskId]: change(s.tasks[taskId]) } } : s))).tasks[taskId],
  }
  const groupTabs = createTaskGroup({
    tabs: browser.tabs,
    tabGroups: browser.tabGroups,
    taskTabs,
    name: async (taskId) => (await server.status(taskId)).task.goal,
  })
  const order = createTaskOrder()
  const follow = followStatus({ attention, indicator, order, debugger: debuggerHold })
  const changes = createTaskChanges({ server, stopAction, follow, order })
  const executor = createExecutor({
    server,
    serverUrl,
    keepAlive: () => browser.runtime.getPlatformInfo(),
    // A next or report reply is news as of its arrival (see createTaskOrder).
    onStatus: (taskId, status) => follow(taskId, status, taskId && status ? order.admit(taskId, status)! : undefined),
    watch: changes.watch,
    // A step's tail keeps the guard until it ends (see createStepTail); a step the task follows at once passes it on.
    afterReport: async (done, next) => {
      if (tail.guarding()) return
      if (next?.taskId === done.taskId) await guard.keep()
      else await guard.release()
    },
    execute: async (action, state, touching) => {
      const barred = await barrierItem.getValue()
      return runAction(
        {
          tabs: browser.tabs,
          permissions: browser.permissions,
          content: framed,
          screenshots,
          serverUrl: await serverUrl(),
          state,
          touching,
          resultKey,
          readResult,
          guard,
          tail,
          watchNavigation: () => watchNavigation({ webNavigation: browser.webNavigation, webRequest: browser.webRequest as never }),
          ...(barred ? { barrier, block: writeBlock } : {}),
          rememberTab: async (taskId, tabId) => {
            await updateState((s) => ({ ...s, tasks: { ...s.tasks, [taskId]: firstTab(tabId, Date.now()) } }))
          },
          taskTabs,
          watchOpened: (from) => watchOpenedTabs(browser.webNavigation, from),
          unreachedFrames: (tabId) => unreachedFrames({ webNavigation: browser.webNavigation, permissions: browser.permissions }, tabId, framed.reached(tabId)),
          groupTabs,
        },
        action,
      )
    },
  })
  const release = async (taskId: string) => {
    await tail.end(null)
    await guard.release()
    await debuggerHold.handBack(taskId)
  }
  const takeover = createTakeover({ server, wake: () => void executor.wake(true), stopAction, release, order })
  // The page shows the answer to its own event (see createInPageIndicator), not what it was told last.
  const pageEvents: Pick<typeof takeover, 'handle'> = {
    handle: async (event, tabId) => {
      indicator.forget(tabId)
      const reply = await takeover.handle(event, tabId)
      indicator.forget(tabId)
      return reply
    },
  }
  const tabLoads = createTabLoads({ order, indicator, refresh: changes.changed })

  return {
    registration,
    executor,
    takeover: { ...takeover, ...pageEvents },
    input,
    /** Chrome's onDetach for the task tabs' debugger (see createTabDebugger). */
    debuggerDetached: tabDebugger.detached,
    attention,
    changes,
    tabLoads,
    /** Session rules outlive a stopped worker: a new one removes any hold it left before running anything. */
    clearGuard: async () => {
      await guard.clear().catch((error: unknown) => console.warn('[tandem] could not clear the navigation guard', error))
      await writeBlock.release()
    },
    /** chrome.alarms keeps its alarms across worker restarts but not across browser restarts: make sure it exists. */
    async ensureAlarm() {
      if (!(await browser.alarms.get(POLL_ALARM))) await browser.alarms.create(POLL_ALARM, { periodInMinutes: 0.5 })
    },
  }
}

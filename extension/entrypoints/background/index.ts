import { browser } from 'wxt/browser'
import { defineBackground } from 'wxt/utils/define-background'
import { onContentEvent } from '../../lib/worker/on-content-event'
import { onInputRequest } from '../../lib/worker/on-input-request'
import { readState } from '../../lib/executor/state'
import { onWorkerMessage } from '../../lib/worker/on-message'
import { POLL_ALARM, createWorker } from '../../lib/worker/create-worker'
import { adoptTaskTab } from '../../lib/worker/adopt-tab'
import { expectTaskTab } from '../../lib/executor/coming-tab'
import { ensureClientId, settingsItem } from '../../lib/settings'

export default defineBackground(() => {
  const worker = createWorker(browser)
  // Listeners are registered synchronously at the top: Chrome only delivers the waking event to those.
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === POLL_ALARM) void worker.executor.wake()
  })
  const adoptTab = (taskId: string, tabId: number) => adoptTaskTab(browser.tabs, taskId, tabId)
  browser.runtime.onMessage.addListener(
    onWorkerMessage({ executor: worker.executor, expectTab: (tabId) => expectTaskTab(tabId), adoptTab, taskChanged: worker.changes.changed }, browser.runtime.getURL('/')),
  )
  browser.runtime.onMessage.addListener(onContentEvent(worker.takeover, browser.runtime.id, browser.runtime.getURL('/')))
  browser.runtime.onMessage.addListener(onInputRequest({ input: worker.input, readState }, browser.runtime.id, browser.runtime.getURL('/')))
  // The content script runs by itself on the sites the person granted: kept in line with every grant.
  browser.permissions.onAdded.addListener(() => void worker.registration.sync())
  browser.permissions.onRemoved.addListener(() => void worker.registration.sync())
  void worker.registration.sync()
  browser.tabs.onUpdated.addListener((tabId, change) => worker.tabLoads.onUpdated(tabId, change))
  browser.debugger.onDetach.addListener((source, reason) => void worker.debuggerDetached(source, reason))
  browser.notifications.onClicked.addListener((id) => void worker.attention.clicked(id))
  // New settings (a fixed URL or token) deserve an immediate try, whatever the back-off said.
  settingsItem.watch(() => void worker.executor.wake(true))
  browser.runtime.onInstalled.addListener(() => void worker.ensureAlarm())
  browser.runtime.onStartup.addListener(() => void worker.ensureAlarm())
  void browser.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined)
  void worker.ensureAlarm()
  void ensureClientId()
  // Every start of the worker resumes whatever a stopped one left behind; the guard drops its leftover rules
  // first (its steps run in order, so no hold the executor takes can be cleared by this).
  void worker.clearGuard()
  void worker.executor.wake()
})

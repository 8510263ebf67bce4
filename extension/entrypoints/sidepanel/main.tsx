import { render } from 'preact'
import { browser } from 'wxt/browser'
import { pickLang } from '../../../ui/i18n'
import { App } from '../../components/App'
import { activityItem } from '../../lib/executor/state'
import { workerReplies, type WorkerRequest } from '../../lib/messages'
import { draftItem, followedTaskItem, readDraft } from '../../lib/panel/persisted'
import { createPanelStore } from '../../lib/panel/store'
import { RecordedMessage } from '../../lib/record/messages'
import { createServerClient } from '../../lib/server/client'
import { readClientId, readSettings, settingsItem } from '../../lib/settings'
import { attentionItem } from '../../lib/worker/attention'
import '../../../ui/theme.css'
import './style.css'

const client = createServerClient({
  settings: readSettings,
  clientId: () => readClientId(),
  version: browser.runtime.getManifest().version,
})

const send = (request: WorkerRequest): Promise<unknown> => browser.runtime.sendMessage(request)

const lang = pickLang(navigator.language || browser.i18n.getUILanguage())
document.documentElement.lang = lang

const store = createPanelStore({
  client,
  settings: { get: readSettings, set: (value) => settingsItem.setValue(value) },
  activity: { get: () => activityItem.getValue(), watch: (cb) => activityItem.watch(cb) },
  wake: () => send({ kind: 'wake', force: true }).then((reply) => void workerReplies.wake.parse(reply), () => undefined),
  // The worker may be starting or busy: the panel's own call already changed the task, this only hurries the page.
  changed: (taskId) => send({ kind: 'task-changed', taskId }).then((reply) => void workerReplies['task-changed'].parse(reply), () => undefined),
  followed: { get: () => followedTaskItem.getValue(), set: (id) => followedTaskItem.setValue(id) },
  draft: { get: readDraft, set: (value) => draftItem.setValue(value) },
  tabs: {
    async current() {
      const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true })
      return tab?.id === undefined || !tab.url ? null : { id: tab.id, url: tab.url, title: tab.title ?? '' }
    },
    expect: async (tabId) => void workerReplies['tab-coming'].parse(await send({ kind: 'tab-coming', tabId })),
    adopt: async (taskId, tabId) => workerReplies['use-tab'].parse(await send({ kind: 'use-tab', taskId, tabId })).adopted,
  },
  hasPermission: (pattern) => browser.permissions.contains({ origins: [pattern] }),
  files: {
    objectUrl: (blob) => URL.createObjectURL(blob),
    revoke: (url) => URL.revokeObjectURL(url),
    download(blob, filename) {
      const url = URL.createObjectURL(blob)
      const link = Object.assign(document.createElement('a'), { href: url, download: filename })
      document.body.append(link)
      link.click()
      link.remove()
      // The download has taken the bytes once the click returned; the URL is no longer needed after that.
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
    },
  },
  lang,
  attention: { get: () => attentionItem.getValue(), watch: (cb) => attentionItem.watch(cb) },
  recorder: {
    inject: (tabId) =>
      browser.scripting.executeScript({ target: { tabId }, files: ['/content-scripts/recorder.js'] }).then(
        () => true,
        () => false,
      ),
    stopIn: async (tabId) => void (await browser.tabs.sendMessage(tabId, { kind: 'record-stop' }).catch(() => undefined)),
  },
})

const permissions = { request: (pattern: string) => browser.permissions.request({ origins: [pattern] }) }

browser.runtime.connect({ name: 'panel' })
const root = document.getElementById('app')!
render(<App store={store} permissions={permissions} />, root)
void store.load()
// The panel is a page: it may poll freely while open (the worker is the one that must not).
setInterval(() => void store.refresh(), 1000)
// The tab in front changes under the panel: say which one "the current tab" is now.
browser.tabs.onActivated.addListener(() => void store.newTask.lookAtCurrentTab())
browser.tabs.onUpdated.addListener((id, change, tab) => {
  if (change.title || change.url) void store.newTask.lookAtCurrentTab()
  if (change.status === 'complete' && tab.url) void store.recording.loaded(id, tab.url)
})
// What the recorder in the person's tab saw them do.
browser.runtime.onMessage.addListener((message, sender) => {
  const recorded = RecordedMessage.safeParse(message)
  if (recorded.success && sender.id === browser.runtime.id) store.recording.recorded(recorded.data, sender.tab?.id)
})

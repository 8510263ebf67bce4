import { render } from 'preact'
import { browser } from 'wxt/browser'
import { App } from '../../components/App'
import { activityItem } from '../../lib/executor/state'
import { workerReplies, type WorkerRequest } from '../../lib/messages'
import { followedTaskItem } from '../../lib/panel/followed'
import { createPanelStore } from '../../lib/panel/store'
import { createServerClient } from '../../lib/server/client'
import { originPattern } from '../../lib/executor/site-access'
import { readClientId, readSettings, settingsItem } from '../../lib/settings'
import './style.css'

const client = createServerClient({
  settings: readSettings,
  clientId: () => readClientId(),
  version: browser.runtime.getManifest().version,
})

const wake = async () => {
  const request: WorkerRequest = { kind: 'wake', force: true }
  workerReplies.wake.parse(await browser.runtime.sendMessage(request))
}

const store = createPanelStore({
  client,
  settings: { get: readSettings, set: (value) => settingsItem.setValue(value) },
  activity: { get: () => activityItem.getValue(), watch: (cb) => activityItem.watch(cb) },
  wake: () => wake().catch(() => undefined),
  followed: { get: () => followedTaskItem.getValue(), set: (id) => followedTaskItem.setValue(id) },
})

const requestSite = (origin: string) => browser.permissions.request({ origins: [originPattern(new URL(origin))] })

browser.runtime.connect({ name: 'panel' })
const root = document.getElementById('app')!
const draw = () => render(<App store={store} requestSite={requestSite} />, root)
draw()
void store.load().then(draw)
// The panel is a page: it may poll freely while open (the worker is the one that must not).
setInterval(() => void store.refresh(), 1500)

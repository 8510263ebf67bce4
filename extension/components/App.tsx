import type { PanelStore } from '../lib/panel/store'
import { Confirmation } from './Confirmation'
import { Question } from './Question'
import { SettingsForm } from './SettingsForm'
import { SiteAccess, type SiteAccessProps } from './SiteAccess'
import { StartTask } from './StartTask'
import { StatusLine } from './StatusLine'

export function App({ store, requestSite }: SiteAccessProps) {
  if (!store.settings.value) return <p>Loading…</p>
  const needsSetup = store.activity.value.connection !== 'ok' && !store.settings.value.token
  return (
    <main>
      <h1>Tandem</h1>
      <Confirmation store={store} />
      <SiteAccess store={store} requestSite={requestSite} />
      <Question store={store} />
      <StartTask store={store} />
      <details open={needsSetup}>
        <summary>Settings</summary>
        <SettingsForm store={store} />
      </details>
      <StatusLine store={store} />
    </main>
  )
}

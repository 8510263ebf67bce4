import type { PanelStore } from '../lib/panel/store'
import { AllowedWrites } from './AllowedWrites'
import { Confirmation } from './Confirmation'
import { Header } from './Header'
import { NewTask } from './NewTask'
import { PlanReview } from './PlanReview'
import { Notice } from './Notice'
import { Question } from './Question'
import { RecentTasks } from './RecentTasks'
import { Record } from './Record'
import { SettingsForm } from './SettingsForm'
import { SiteAccess } from './SiteAccess'
import { TaskPanel } from './TaskPanel'
import { WaitingBanner } from './WaitingBanner'
import type { Permissions } from './permissions'

export interface AppProps {
  store: PanelStore
  permissions: Permissions
}

/** What needs the person comes first: a decision, a question, the task, then a new task, the settings and the writes always allowed. */
export function App({ store, permissions }: AppProps) {
  const { t, connection } = store
  if (!connection.settings.value) return <p class="muted">{t('loading')}</p>
  const firstRun = connection.needsSetup.value
  return (
    <main lang={store.lang}>
      <WaitingBanner store={store} />
      <Header store={store} />
      <Notice store={store} />
      {firstRun && <SettingsForm store={store} permissions={permissions} />}
      <PlanReview store={store} />
      <Confirmation store={store} />
      <SiteAccess store={store} permissions={permissions} />
      <Question store={store} />
      <TaskPanel store={store} />
      <NewTask store={store} />
      <Record store={store} />
      <RecentTasks store={store} />
      {!firstRun && (
        <details class="settings" open={connection.open.value} onToggle={(e) => connection.setOpen(e.currentTarget.open)}>
          <summary>{t('settings.summary')}</summary>
          <SettingsForm store={store} permissions={permissions} />
        </details>
      )}
      {!firstRun && <AllowedWrites store={store} />}
    </main>
  )
}

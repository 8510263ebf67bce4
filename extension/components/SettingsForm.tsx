import { needsGrant, serverOriginPattern } from '../lib/panel/connection'
import type { PanelStore } from '../lib/panel/store'
import type { Permissions } from './permissions'

/** Server URL and token, with a test that says exactly what is wrong. */
export function SettingsForm({ store, permissions }: { store: PanelStore; permissions: Permissions }) {
  const { t, connection, busy } = store
  const firstRun = connection.needsSetup.value
  return (
    <form
      class="card"
      data-testid="settings"
      onSubmit={(e) => {
        e.preventDefault()
        void connection.save()
      }}
    >
      <h2>{t('settings.title')}</h2>
      {firstRun && <p class="muted">{t('settings.firstRun')}</p>}
      <label>
        {t('settings.url')}
        <input name="serverUrl" value={connection.serverUrl.value} onInput={(e) => (connection.serverUrl.value = e.currentTarget.value)} />
      </label>
      <label>
        {t('settings.token')}
        <input
          name="token"
          type="password"
          autocomplete="off"
          value={connection.token.value}
          onInput={(e) => (connection.token.value = e.currentTarget.value)}
        />
      </label>
      <div class="row">
        <button type="submit" disabled={busy.value}>
          {t('settings.save')}
        </button>
        <button
          type="button"
          class="primary"
          disabled={busy.value}
          onClick={() => {
            const url = connection.serverUrl.value.trim()
            // The prompt needs this click's gesture: it is asked for before anything else happens.
            const granted = needsGrant(url) ? permissions.request(serverOriginPattern(url)) : undefined
            void connection.test(granted)
          }}
        >
          {t('settings.test')}
        </button>
      </div>
    </form>
  )
}

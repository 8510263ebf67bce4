import { useState } from 'preact/hooks'
import type { PanelStore } from '../lib/panel/store'

export function SettingsForm({ store }: { store: PanelStore }) {
  const current = store.settings.value
  const [serverUrl, setServerUrl] = useState(current?.serverUrl ?? '')
  const [token, setToken] = useState(current?.token ?? '')
  return (
    <form
      class="card"
      data-testid="settings"
      onSubmit={(e) => {
        e.preventDefault()
        void store.saveSettings({ serverUrl, token })
      }}
    >
      <h2>Server</h2>
      <label>
        URL
        <input name="serverUrl" value={serverUrl} onInput={(e) => setServerUrl(e.currentTarget.value)} />
      </label>
      <label>
        Token
        <input name="token" type="password" autocomplete="off" value={token} onInput={(e) => setToken(e.currentTarget.value)} />
      </label>
      <div class="row">
        <button type="submit" disabled={store.busy.value}>
          Save
        </button>
        <button type="button" disabled={store.busy.value} onClick={() => void store.testConnection()}>
          Test connection
        </button>
      </div>
    </form>
  )
}

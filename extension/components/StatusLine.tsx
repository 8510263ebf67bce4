import type { PanelStore } from '../lib/panel/store'

export function StatusLine({ store }: { store: PanelStore }) {
  const connection = store.activity.value.connection
  return (
    <footer class={`status status-${connection}`} data-testid="status" role="status">
      <span>{store.statusLine.value}</span>
      {connection === 'down' && (
        <button type="button" onClick={() => void store.testConnection()}>
          Retry now
        </button>
      )}
      {store.notice.value && <p class="notice" data-testid="notice">{store.notice.value}</p>}
    </footer>
  )
}

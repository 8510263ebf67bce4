import type { PanelStore } from '../lib/panel/store'

/** The name and, always in sight, whether the panel reaches its server. */
export function Header({ store }: { store: PanelStore }) {
  const link = store.link.value
  return (
    <header class="panel-head">
      <h1>Tandem</h1>
      <span class={`link link-${link}`} data-testid="link" title={store.statusLine.value}>
        {store.t(`conn.badge.${link}`)}
      </span>
      {(link === 'down' || link === 'not_answering' || link === 'unauthorized' || link === 'not_configured') && !store.notice.value && (
        <p class="link-detail" data-testid="status" role="status">
          {store.statusLine.value}
        </p>
      )}
    </header>
  )
}

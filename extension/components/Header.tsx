import type { PanelStore } from '../lib/panel/store'

/** The name and, always in sight, whether the panel reaches its server. */
export function Header({ store }: { store: PanelStore }) {
  // Before the first setup nothing is wrong yet: the form below says what to do, in words, not in red.
  const setup = store.connection.needsSetup.value
  const link = setup ? 'not_configured' : store.link.value
  return (
    <header class="panel-head">
      <h1>Tandem</h1>
      <span class={`link ${setup ? 'link-setup' : `link-${link}`}`} data-testid="link" title={store.statusLine.value}>
        {store.t(`conn.badge.${link}`)}
      </span>
      {!setup && (link === 'down' || link === 'not_answering' || link === 'unauthorized' || link === 'not_configured') && !store.notice.value && (
        <p class="link-detail" data-testid="status" role="status">
          {store.statusLine.value}
        </p>
      )}
    </header>
  )
}

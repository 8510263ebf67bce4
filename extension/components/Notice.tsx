import type { PanelStore } from '../lib/panel/store'

/** The answer to the person's last click; errors are announced at once. */
export function Notice({ store }: { store: PanelStore }) {
  const notice = store.notice.value
  if (!notice) return null
  return (
    <p class={`notice notice-${notice.tone}`} data-testid="notice" role={notice.tone === 'error' ? 'alert' : 'status'}>
      {notice.text}
    </p>
  )
}

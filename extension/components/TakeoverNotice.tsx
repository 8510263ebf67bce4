import type { PanelStore } from '../lib/panel/store'

/** The person took the page over with their own input: say so beside the one button that hands it back. */
export function TakeoverNotice({ store }: { store: PanelStore }) {
  const { t, task, busy } = store
  const text = store.takeover.value
  if (!text) return null
  return (
    <div class="takeover-note row" data-testid="takeover" role="status">
      <p class="takeover-text">{text}</p>
      <button type="button" class="primary" disabled={busy.value} onClick={() => void task.resume()}>
        {t('controls.resume')}
      </button>
    </div>
  )
}

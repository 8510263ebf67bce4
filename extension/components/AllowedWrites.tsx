import { describeRule } from '../lib/panel/allowed-writes'
import type { PanelStore } from '../lib/panel/store'

/** The writes the person always allows, per site, each with a way to take it back; read again when opened. */
export function AllowedWrites({ store }: { store: PanelStore }) {
  const { t, allowedWrites, busy } = store
  const rules = allowedWrites.rules.value
  return (
    <details class="settings" data-testid="allowed-writes" onToggle={(e) => e.currentTarget.open && void allowedWrites.load()}>
      <summary>
        {t('allowed.title')} ({rules.length})
      </summary>
      <section class="card">
        <p class="hint muted">{t('allowed.hint')}</p>
        {rules.length ? (
          <ul class="allowed">
            {rules.map((rule) => (
              <li key={describeRule(rule, t)} data-testid="allowed-rule">
                <span class="url">{describeRule(rule, t)}</span>
                <button type="button" disabled={busy.value} onClick={() => void allowedWrites.forget(rule)}>
                  {t('allowed.remove')}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p class="muted">{t('allowed.empty')}</p>
        )}
      </section>
    </details>
  )
}

import { describeRule } from '../lib/panel/allowed-writes'
import { describeAskRule } from '../lib/panel/ask-always'
import type { PanelStore } from '../lib/panel/store'

/** The harmless kinds the person wants asked about on a site all the same, each with a way to take it back. */
function AskedKinds({ store }: { store: PanelStore }) {
  const { t, askAlways, busy } = store
  const rules = askAlways.rules.value
  return (
    <section class="card" data-testid="ask-always">
      <h3>{t('asked.title')}</h3>
      <p class="hint muted">{t('asked.hint')}</p>
      {rules.length ? (
        <ul class="allowed">
          {rules.map((rule) => (
            <li key={`${rule.site} ${rule.kind}`} data-testid="asked-rule">
              <span>{describeAskRule(rule, t)}</span>
              <button type="button" disabled={busy.value} onClick={() => void askAlways.forget(rule)}>
                {t('allowed.remove')}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">{t('asked.empty')}</p>
      )}
    </section>
  )
}

/**
 * The writes the person always allows, per site, and the harmless kinds always asked about, each with a way to take
 * it back; read again when opened.
 */
export function AllowedWrites({ store }: { store: PanelStore }) {
  const { t, allowedWrites, busy } = store
  const rules = allowedWrites.rules.value
  return (
    <details
      class="settings"
      data-testid="allowed-writes"
      onToggle={(e) => e.currentTarget.open && void Promise.all([allowedWrites.load(), store.askAlways.load()])}
    >
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
      <AskedKinds store={store} />
    </details>
  )
}

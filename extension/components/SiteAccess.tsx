import type { PanelStore } from '../lib/panel/store'
import { originPattern } from '../lib/executor/site-access'
import type { Permissions } from './permissions'

/**
 * The task was refused a site: Allow asks the browser, as the first thing its click does; Don't allow answers the
 * task. When the step would have left the page for another site, the card says so and Allow is not the default.
 */
export function SiteAccess({ store, permissions }: { store: PanelStore; permissions: Permissions }) {
  const origin = store.needsSite.value
  if (!origin) return null
  const from = store.siteLeavingFrom.value
  const { t } = store
  return (
    <section class="card attention" data-testid="site-access">
      <h2>{t('site.title')}</h2>
      <p>{t('site.body', { origin })}</p>
      {from ? (
        <p class="risk-high" data-testid="site-leaving">
          {t('site.leaving', { from, origin })}
        </p>
      ) : null}
      <div class="row">
        <button
          type="button"
          class={from ? undefined : 'primary'}
          onClick={() => {
            const asked = permissions.request(originPattern(new URL(origin)))
            void asked.then((granted) => store.siteDecided(origin, granted), () => store.siteDecided(origin, false))
          }}
        >
          {t('site.allow', { origin })}
        </button>
        <button type="button" class={from ? 'primary' : undefined} disabled={store.busy.value} onClick={() => void store.siteRefused(origin)}>
          {t('site.refuse')}
        </button>
      </div>
      <p class="muted hint" data-testid="site-refuse-hint">
        {t('site.refuseHint')}
      </p>
    </section>
  )
}

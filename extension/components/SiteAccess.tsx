import type { PanelStore } from '../lib/panel/store'
import { originPattern } from '../lib/executor/site-access'
import type { Permissions } from './permissions'

/** The task was refused a site: one button that asks the browser, as the first thing its click does. */
export function SiteAccess({ store, permissions }: { store: PanelStore; permissions: Permissions }) {
  const origin = store.needsSite.value
  if (!origin) return null
  const { t } = store
  return (
    <section class="card attention" data-testid="site-access">
      <h2>{t('site.title')}</h2>
      <p>{t('site.body', { origin })}</p>
      <button
        type="button"
        class="primary"
        onClick={() => {
          const asked = permissions.request(originPattern(new URL(origin)))
          void asked.then((granted) => store.siteDecided(origin, granted), () => store.siteDecided(origin, false))
        }}
      >
        {t('site.allow', { origin })}
      </button>
    </section>
  )
}

import type { PanelStore } from '../lib/panel/store'

export interface SiteAccessProps {
  store: PanelStore
  /** chrome.permissions.request for the site; it needs the click's user gesture, so it is called first. */
  requestSite: (origin: string) => Promise<boolean>
}

export function SiteAccess({ store, requestSite }: SiteAccessProps) {
  const origin = store.needsSite.value
  if (!origin) return null
  return (
    <section class="card" data-testid="site-access">
      <h2>Site not authorised</h2>
      <p>
        The task needs to act on <strong>{origin}</strong>. Tandem only acts on sites you allow.
      </p>
      <button
        type="button"
        onClick={() => {
          const asked = requestSite(origin)
          void asked.then((granted) => store.siteDecided(origin, granted), () => store.siteDecided(origin, false))
        }}
      >
        Allow {origin}
      </button>
    </section>
  )
}

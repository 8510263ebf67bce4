import { describeBrowser } from '#protocol'
import { useConsole } from '../context'

/** The extensions that have called this server, newest first. */
export function ClientsPage() {
  const { store, t, lang } = useConsole()
  const clients = store.clients.value
  const when = (at: string) => new Date(at).toLocaleString(lang)
  return (
    <section class="clients">
      <h2>{t('clientsTitle')}</h2>
      {store.clientsError.value ? (
        <p class="error" role="alert">
          {store.clientsError.value}
        </p>
      ) : clients === null ? (
        <p class="muted">{t('loading')}</p>
      ) : clients.length === 0 ? (
        <p class="muted">{t('clientsNone')}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>ID</th>
              <th>{t('clientVersion')}</th>
              <th>{t('clientAgent')}</th>
              <th>{t('clientFirst')}</th>
              <th>{t('clientLast')}</th>
            </tr>
          </thead>
          <tbody>
            {clients.map((c) => (
              <tr key={c.clientId} data-client={c.clientId}>
                <td>
                  {describeBrowser(c.userAgent, lang) ?? c.clientId}
                  {describeBrowser(c.userAgent, lang) && <div class="muted">{c.clientId}</div>}
                </td>
                <td>{c.version ?? '—'}</td>
                <td class="muted ua">{c.userAgent ?? '—'}</td>
                <td>{when(c.firstSeen)}</td>
                <td>{when(c.lastSeen)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

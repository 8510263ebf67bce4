import { render } from 'preact'
import type { AuditEvent, VerifyResult } from '#protocol'
import '../theme.css'
import './replay.css'
import { pickLang } from '../i18n'
import { replayTranslator } from './i18n'
import { buildReplay } from './model'
import { ReplayView } from './ReplayView'

/** The data replay.html carries inline, written by server/lib/audit/replay-html.ts. */
function readJson<T>(id: string): T | null {
  const text = document.getElementById(id)?.textContent
  return text ? (JSON.parse(text) as T) : null
}

// Screenshots sit next to the page in the unzipped export, so a relative URL works from file:// with no server.
const image = (name: string) => `artifacts/${encodeURIComponent(name)}`

const lang = pickLang(navigator.language)
const t = replayTranslator(lang)
document.documentElement.lang = lang
const events = readJson<AuditEvent[]>('tandem-events') ?? []
const verified = readJson<VerifyResult>('tandem-verified')
const exportedAt = readJson<{ exportedAt: string }>('tandem-export')?.exportedAt
const signer = readJson<{ key?: string }>('tandem-signer')
const replay = buildReplay(events)
document.title = `${replay.goal || replay.taskId} — Tandem`

render(
  <main class="replay-page">
    {exportedAt && <p class="muted">{t('offlineNote', { at: new Date(exportedAt).toLocaleString(lang) })}</p>}
    {signer?.key && (
      <p class="muted" data-signed-by={signer.key}>
        {t('signedBy', { key: signer.key })}
      </p>
    )}
    {events.length ? <ReplayView replay={replay} verified={verified} t={t} lang={lang} image={image} /> : <p>{t('noEvents')}</p>}
  </main>,
  document.getElementById('app')!,
)

import type { PanelStore } from '../lib/panel/store'

/** Teach by showing: Record, do the task in the tab, Stop, review the steps and the words, save as a skill. */
export function Record({ store }: { store: PanelStore }) {
  const { t, recording, busy } = store
  const phase = recording.phase.value
  const steps = recording.steps.value
  if (phase === 'idle') {
    return (
      <section class="card record" data-testid="record">
        <p class="hint muted">{t('record.hint')}</p>
        <button type="button" data-testid="record-start" disabled={busy.value} onClick={() => void recording.start()}>
          {t('record.start')}
        </button>
      </section>
    )
  }
  if (phase === 'recording') {
    return (
      <section class="card record" data-testid="record" aria-live="polite">
        <p role="status">{t('record.recording', { title: recording.tab.value?.title || recording.tab.value?.url || '' })}</p>
        {steps.length ? (
          <ol data-testid="record-steps">
            {steps.map((s) => (
              <li key={s.id}>{s.words}</li>
            ))}
          </ol>
        ) : (
          <p class="muted">{t('record.none')}</p>
        )}
        <button type="button" class="primary" data-testid="record-stop" onClick={() => void recording.stop()}>
          {t('record.stop')}
        </button>
      </section>
    )
  }
  return (
    <form
      class="card record"
      data-testid="record-review"
      onSubmit={(e) => {
        e.preventDefault()
        void recording.save()
      }}
    >
      <h3>{t('record.review')}</h3>
      <p class="hint muted">{t('record.reviewHint')}</p>
      <ol data-testid="record-steps">
        {steps.map((s, i) => (
          <li key={s.id} class="row">
            <input
              aria-label={t('record.stepWords', { n: i + 1 })}
              maxLength={2000}
              value={s.words}
              onInput={(e) => recording.reword(s.id, e.currentTarget.value)}
            />
            <button type="button" aria-label={t('record.delete', { n: i + 1 })} onClick={() => recording.remove(s.id)}>
              ✕
            </button>
          </li>
        ))}
      </ol>
      <label>
        {t('record.sop')}
        <textarea name="sop" rows={8} maxLength={20_000} value={recording.sop.value} onInput={(e) => recording.editSop(e.currentTarget.value)} />
      </label>
      <label>
        {t('record.name')}
        <input name="recordName" maxLength={200} value={recording.name.value} onInput={(e) => (recording.name.value = e.currentTarget.value)} />
      </label>
      <div class="row">
        <button type="submit" class="primary" disabled={busy.value}>
          {t('record.save')}
        </button>
        <button type="button" onClick={() => recording.discard()}>
          {t('record.discard')}
        </button>
      </div>
    </form>
  )
}

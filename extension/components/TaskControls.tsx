import { isTerminal } from '#protocol'
import type { PanelStore } from '../lib/panel/store'

/**
 * Pause hands the page to the person (takeover); Resume gives it back; Cancel ends the task. A finished task offers
 * Save as skill beside Export audit, one row of actions that wraps when the panel is narrow.
 */
export function TaskControls({ store }: { store: PanelStore }) {
  const { t, task, busy, saveSkill } = store
  const status = task.status.value
  if (!status) return null
  const live = !isTerminal(status)
  return (
    <div class="row controls" data-testid="controls">
      {live && status !== 'PAUSED' && (
        <button type="button" disabled={busy.value} onClick={() => void task.pause()}>
          {t('controls.pause')}
        </button>
      )}
      {/* A takeover shows its own Resume beside the words that explain it (TakeoverNotice). */}
      {status === 'PAUSED' && !store.takeover.value && (
        <button type="button" class="primary" disabled={busy.value} onClick={() => void task.resume()}>
          {t('controls.resume')}
        </button>
      )}
      {live && (
        <button type="button" class="danger" disabled={busy.value} onClick={() => void task.cancel()}>
          {t('controls.cancel')}
        </button>
      )}
      {saveSkill.offered.value && !saveSkill.form.value && (
        <button type="button" data-testid="save-skill-open" onClick={() => saveSkill.open()}>
          {t('save.offer')}
        </button>
      )}
      <button type="button" disabled={busy.value} onClick={() => void task.exportAudit()}>
        {t('controls.export')}
      </button>
    </div>
  )
}

import type { PanelStore } from '../lib/panel/store'

/**
 * Each control shows only where it can act (panelControls): Pause hands the page to the person (takeover); Resume gives it back; Cancel ends the task. A finished task offers
 * Save as skill beside Export audit, one row of actions that wraps when the panel is narrow.
 */
export function TaskControls({ store }: { store: PanelStore }) {
  const { t, task, busy, saveSkill } = store
  if (!task.status.value) return null
  const can = task.controls.value
  return (
    <div class="row controls" data-testid="controls">
      {can.pause && (
        <button type="button" disabled={busy.value} onClick={() => void task.pause()}>
          {t('controls.pause')}
        </button>
      )}
      {/* A takeover shows its own Resume beside the words that explain it (TakeoverNotice). */}
      {can.resume && !store.takeover.value && (
        <button type="button" class="primary" disabled={busy.value} onClick={() => void task.resume()}>
          {t('controls.resume')}
        </button>
      )}
      {can.cancel && (
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

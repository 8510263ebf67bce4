import type { PanelStore } from '../lib/panel/store'

/** A finished task saved as a skill under the name the person gives it; replace or keep both when they have that name. */
export function SaveSkill({ store }: { store: PanelStore }) {
  const { t, saveSkill, busy } = store
  const saved = saveSkill.saved.value
  if (saved) {
    return (
      <p class="skill-saved" data-testid="skill-saved" data-slug={saved.slug} role="status">
        {t('save.saved', { name: saved.name })} {saved.scripted && t('save.scripted')}
      </p>
    )
  }
  // The button that opens the form sits with the task's other actions (TaskControls).
  const form = saveSkill.offered.value ? saveSkill.form.value : null
  if (!form) return null
  return (
    <form
      class="save-skill"
      data-testid="save-skill"
      onSubmit={(e) => {
        e.preventDefault()
        void saveSkill.save()
      }}
    >
      <h3>{t('save.title')}</h3>
      <p class="hint muted">{t('save.hint')}</p>
      <label>
        {t('save.name')}
        <input name="skillName" maxLength={200} value={form.name} onInput={(e) => saveSkill.setName(e.currentTarget.value)} />
      </label>
      {form.conflict !== null && (
        <p class="notice notice-error" data-testid="skill-conflict" role="alert">
          {t('save.conflict', { name: form.conflict })}
        </p>
      )}
      <div class="row">
        {form.conflict !== null ? (
          <>
            <button type="button" class="danger" disabled={busy.value} onClick={() => void saveSkill.save('replace')}>
              {t('save.overwrite')}
            </button>
            <button type="button" class="primary" disabled={busy.value} onClick={() => void saveSkill.save('keepBoth')}>
              {t('save.keepBoth')}
            </button>
          </>
        ) : (
          <button type="submit" class="primary" disabled={busy.value}>
            {t('save.submit')}
          </button>
        )}
        <button type="button" onClick={() => saveSkill.close()}>
          {t('save.cancel')}
        </button>
      </div>
    </form>
  )
}

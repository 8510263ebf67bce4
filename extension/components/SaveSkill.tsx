import type { PanelStore } from '../lib/panel/store'

/** A finished task saved as a skill: the goal as its name, an optional slug, and overwrite when that slug is taken. */
export function SaveSkill({ store }: { store: PanelStore }) {
  const { t, saveSkill, busy } = store
  const saved = saveSkill.saved.value
  if (saved) {
    return (
      <p class="skill-saved" data-testid="skill-saved" data-slug={saved.slug} role="status">
        {t('save.saved', { slug: saved.slug })} {saved.scripted && t('save.scripted')}
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
      <label>
        {t('save.slug')}
        <input name="skillSlug" maxLength={128} value={form.slug} onInput={(e) => saveSkill.setSlug(e.currentTarget.value)} />
        <span class="hint muted">{t('save.slugHint')}</span>
      </label>
      {form.conflict && (
        <p class="notice notice-error" data-testid="skill-conflict" role="alert">
          {t(form.shipped ? 'save.shipped' : 'save.conflict', { slug: form.conflict })}
        </p>
      )}
      <div class="row">
        {form.conflict && !form.shipped ? (
          <button type="button" class="danger" disabled={busy.value} onClick={() => void saveSkill.save(true)}>
            {t('save.overwrite', { slug: form.conflict })}
          </button>
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

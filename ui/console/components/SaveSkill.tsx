import { useState } from 'preact/hooks'
import type { SaveSkillBody } from '#protocol'
import { skillWords } from '#protocol'
import { useConsole } from '../context'

/** Saves a finished task as skills/<slug>/SKILL.md through POST /api/skills. */
export function SaveSkill({ taskId, goal }: { taskId: string; goal: string }) {
  const { store, t, lang } = useConsole()
  const [open, setOpen] = useState(false)
  const [name, setName] = useState(goal.slice(0, 200))
  const [slug, setSlug] = useState('')
  const [description, setDescription] = useState('')
  const [overwrite, setOverwrite] = useState(false)
  const [busy, setBusy] = useState(false)
  const saved = store.saveResult.value
  if (saved) {
    return (
      <p class="saved" role="status">
        {t('saved', { file: saved.file, name: skillWords(saved.skill.name, saved.skill.parameters, lang) })}
      </p>
    )
  }
  if (!open) {
    return (
      <button type="button" class="save-skill" onClick={() => setOpen(true)}>
        {t('saveAsSkill')}
      </button>
    )
  }
  return (
    <form
      class="card save-form"
      onSubmit={async (event) => {
        event.preventDefault()
        const body: SaveSkillBody = {
          taskId,
          ...(name.trim() ? { name: name.trim() } : {}),
          ...(slug.trim() ? { slug: slug.trim() } : {}),
          ...(description.trim() ? { description: description.trim() } : {}),
          ...(overwrite ? { overwrite } : {}),
        }
        setBusy(true)
        await store.saveSkill(body)
        setBusy(false)
      }}
    >
      <h3>{t('saveTitle')}</h3>
      <label>
        {t('saveName')}
        <input name="name" value={name} maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        {t('saveSlug')}
        <input name="slug" value={slug} pattern="[a-z0-9][a-z0-9\-]*" maxLength={128} onInput={(e) => setSlug(e.currentTarget.value)} />
      </label>
      <label>
        {t('saveDescription')}
        <textarea name="description" rows={2} maxLength={2000} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </label>
      <label class="row">
        <input type="checkbox" checked={overwrite} onChange={(e) => setOverwrite(e.currentTarget.checked)} />
        {t('saveOverwrite')}
      </label>
      {store.saveError.value && (
        <p class="error" role="alert">
          {store.saveError.value}
        </p>
      )}
      <div class="row">
        <button type="submit" class="primary" disabled={busy}>
          {t('saveSubmit')}
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          {t('saveCancel')}
        </button>
      </div>
    </form>
  )
}

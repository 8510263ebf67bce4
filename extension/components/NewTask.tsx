import type { PanelStore } from '../lib/panel/store'
import { SkillPicker } from './SkillPicker'

/**
 * Goal, an optional skill, and where to start: the tab in front of the person or a new one. While the followed task
 * runs the form folds to its title, so the task and its decisions own the panel.
 */
export function NewTask({ store }: { store: PanelStore }) {
  const { t, newTask, busy } = store
  const { goal, where, startUrl, planFirst, skill } = newTask.draft.value
  const tab = newTask.currentTab.value
  return (
    <details class="card new-task" data-testid="start" open={newTask.open.value} onToggle={(e) => newTask.setOpen(e.currentTarget.open)}>
      <summary>
        <h2>{t('start.title')}</h2>
      </summary>
      <form
        class="new-task-form"
        onSubmit={(e) => {
          e.preventDefault()
          void newTask.start()
        }}
      >
        <label>
          {t('start.goal')}
          <textarea
            name="goal"
            rows={3}
            placeholder={t('start.goalPlaceholder')}
            value={goal}
            onInput={(e) => newTask.setGoal(e.currentTarget.value)}
            onKeyDown={(e) => {
              // Ctrl/⌘+Enter runs, as in a chat box; a plain Enter stays a new line.
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault()
                void newTask.start()
              }
            }}
          />
        </label>
        <SkillPicker store={store} />
        <fieldset class="where">
          <legend>{t('start.where')}</legend>
          <label class="inline">
            <input type="radio" name="where" value="current" checked={where === 'current'} onChange={() => newTask.setWhere('current')} />
            {t('start.current')}
          </label>
          {where === 'current' && (
            <p class="muted tab-line" data-testid="current-tab">
              {tab ? t('start.currentTab', { title: tab.title || tab.url }) : t('start.noCurrentTab')}
            </p>
          )}
          <label class="inline">
            <input type="radio" name="where" value="new" checked={where === 'new'} onChange={() => newTask.setWhere('new')} />
            {t('start.newTab')}
          </label>
          {where === 'new' && (
            <label>
              {t('start.url')}
              <input
                name="startUrl"
                placeholder="https://…"
                value={startUrl}
                aria-invalid={newTask.urlError.value ? true : undefined}
                aria-describedby={newTask.urlError.value ? 'start-url-error' : undefined}
                onInput={(e) => newTask.setStartUrl(e.currentTarget.value)}
              />
            </label>
          )}
          {where === 'new' && newTask.urlError.value && (
            <p id="start-url-error" class="field-error" role="alert" data-testid="start-url-error">
              {newTask.urlError.value}
            </p>
          )}
        </fieldset>
        {!skill?.scripted && (
          <label class="inline" title={t('start.planFirstHint')}>
            <input type="checkbox" name="planFirst" checked={!!planFirst} onChange={(e) => newTask.setPlanFirst(e.currentTarget.checked)} />
            {t('start.planFirst')}
          </label>
        )}
        <div class="row">
          <button type="submit" class="primary" disabled={busy.value}>
            {t('start.run')}
          </button>
        </div>
      </form>
    </details>
  )
}

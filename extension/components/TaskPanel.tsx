import type { PanelStore } from '../lib/panel/store'
import { SaveSkill } from './SaveSkill'
import { TakeoverNotice } from './TakeoverNotice'
import { TaskControls } from './TaskControls'
import { Timeline } from './Timeline'

/** The followed task: its goal and status, what the person can do with it, its steps and how it ended. */
export function TaskPanel({ store }: { store: PanelStore }) {
  const { t, task } = store
  const view = task.view.value
  if (!view) return null
  const { result, error, status } = view.task
  return (
    <section class="card task" data-testid="task" aria-live="polite">
      <div class="task-head">
        <h2 class="task-goal">{view.task.goal}</h2>
        <span class={`badge status-${status}`} data-testid="task-status">
          {t(`status.${status}`)}
        </span>
      </div>
      {view.task.skill && <p class="muted">{t('start.skillPicked', { name: view.task.skill })}</p>}
      <TakeoverNotice store={store} />
      {/* How it ended comes before the steps that led there: in a narrow panel the timeline is many screens long. */}
      {(result || error) && (
        <div class={`result ${result?.success ? 'result-ok' : 'result-bad'}`} data-testid="result">
          <h3>{t(result?.success ? 'result.success' : 'result.failure')}</h3>
          {result?.text && <p>{result.text}</p>}
          {error && <p class="step-error">{error.message}</p>}
        </div>
      )}
      <SaveSkill store={store} />
      <TaskControls store={store} />
      <Timeline store={store} />
      {task.thinking.value && (
        <p class="thinking-line" data-testid="thinking">
          <span class="thinking">{t('thinking')}</span>
        </p>
      )}
    </section>
  )
}

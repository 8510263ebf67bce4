import { describeError } from '#protocol'
import { canceledByOf, personEnd, statusOf } from '../../status-words'
import type { TaskStatus } from '#protocol'
import { hrefOf } from '../route'
import { useConsole } from '../context'
import type { StatusFilter } from '../store'
import { replayTranslator } from '../../replay/i18n'

const STATUSES: TaskStatus[] = ['RUNNING', 'WAITING_CONFIRMATION', 'WAITING_USER', 'WAITING_PAGE', 'PAUSED', 'SUCCEEDED', 'FAILED', 'CANCELED', 'WAITING_PLAN']

/** Every task, newest first, narrowed by status and by words of its goal. */
export function TaskList() {
  const { store, t, lang } = useConsole()
  const rt = replayTranslator(lang)
  const all = store.tasks.value
  const shown = store.visibleTasks.value
  return (
    <section class="task-list">
      <div class="row filters">
        <label>
          {t('filterStatus')}
          <select name="status" value={store.statusFilter.value} onChange={(e) => (store.statusFilter.value = e.currentTarget.value as StatusFilter)}>
            <option value="all">{t('filterAll')}</option>
            <option value="active">{t('filterActive')}</option>
            {STATUSES.map((s) => (
              <option value={s} key={s}>
                {rt(`status_${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label class="grow">
          {t('filterText')}
          <input name="q" type="search" value={store.textFilter.value} onInput={(e) => (store.textFilter.value = e.currentTarget.value)} />
        </label>
        <button type="button" onClick={store.refresh}>
          {t('refresh')}
        </button>
      </div>
      {store.tasksError.value && <p class="error" role="alert">{store.tasksError.value}</p>}
      {all === null ? (
        <p class="muted">{t('loading')}</p>
      ) : all.length === 0 ? (
        <p class="muted">{t('noTasks')}</p>
      ) : (
        <>
          <p class="muted" data-count>{t('taskCount', { shown: shown.length, total: all.length })}</p>
          {shown.length === 0 ? (
            <p class="muted">{t('noMatch')}</p>
          ) : (
            <table class="tasks">
              <thead>
                <tr>
                  <th>{t('colGoal')}</th>
                  <th>{t('colStatus')}</th>
                  <th>{t('colSteps')}</th>
                  <th>{t('colMode')}</th>
                  <th>{t('colCreated')}</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((task) => (
                  <tr key={task.id} data-task={task.id}>
                    <td>
                      <a href={hrefOf({ page: 'task', taskId: task.id })}>{task.goal}</a>
                      {task.error &&
                        (personEnd(task.status, task.error) ? (
                          <div class="muted">{describeError(task.error, lang)}</div>
                        ) : (
                          <div class="step-error" data-code={task.error.code} title={task.error.message}>
                            {describeError(task.error, lang)}
                          </div>
                        ))}
                    </td>
                    <td>
                      <span class={`badge status-${statusOf(lang, task.status, task.error, canceledByOf(task)).tone}`} data-status={task.status}>
                        {statusOf(lang, task.status, task.error, canceledByOf(task)).words}
                      </span>
                    </td>
                    <td>{task.stepCount}</td>
                    <td>{task.mode === 'script' ? rt('modeScript') : task.mode === 'mcp' ? rt('modeMcp') : rt('modeLlm')}</td>
                    <td class="muted">{new Date(task.createdAt).toLocaleString(lang)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  )
}

import { canceledByOf, statusOf } from '../../ui/status-words'
import type { PanelStore } from '../lib/panel/store'

/** The latest tasks, to switch the panel to any of them. */
export function RecentTasks({ store }: { store: PanelStore }) {
  const { t, task } = store
  const tasks = task.recent.value
  if (tasks.length === 0) return null
  const shown = task.taskId.value
  return (
    <details class="recent" data-testid="recent" onToggle={(e) => e.currentTarget.open && void task.loadRecent()}>
      <summary>{t('recent.title')}</summary>
      <ul>
        {tasks.map((item) => (
          <li key={item.id}>
            <button type="button" class="recent-task" aria-current={item.id === shown} onClick={() => void task.follow(item.id)}>
              <span class="recent-goal">{item.goal}</span>
              <span class={`badge status-${statusOf(store.lang, item.status, item.error, canceledByOf(item)).tone}`}>
                {statusOf(store.lang, item.status, item.error, canceledByOf(item)).words}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </details>
  )
}

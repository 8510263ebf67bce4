import type { PanelStore } from '../lib/panel/store'

/**
 * Pinned at the top: every task that waits for the person, the one shown and the others, each a click away. A
 * task waiting for approval must never hide in the folded list of recent tasks while the toolbar shows `!`.
 */
export function WaitingBanner({ store }: { store: PanelStore }) {
  const { t } = store
  const tasks = store.waiting.value
  if (tasks.length === 0) return null
  const shown = store.task.taskId.value
  return (
    <nav class="waiting" data-testid="waiting" aria-label={t('waiting.label')}>
      {tasks.map((w) => (
        <button
          key={w.taskId}
          type="button"
          class={`waiting-task waiting-${w.kind}`}
          data-task={w.taskId}
          aria-current={w.taskId === shown}
          onClick={() =>
            void store.openWaiting(w.taskId).then(() =>
              // After the panel has drawn that task: its waiting card is brought into view and focused for the keyboard.
              requestAnimationFrame(() => {
                const card = document.querySelector<HTMLElement>('[data-testid=confirmation], [data-testid=question], [data-testid=site-access]')
                card?.scrollIntoView({ block: 'nearest' })
                card?.focus({ preventScroll: true })
              }),
            )
          }
        >
          <span class="waiting-text">{t(`waiting.${w.kind}`, { goal: w.goal })}</span>
          <span class="waiting-go">{t(w.taskId === shown ? 'waiting.shown' : 'waiting.open')}</span>
        </button>
      ))}
    </nav>
  )
}

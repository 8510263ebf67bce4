import { computed, signal } from '@preact/signals'
import { explain } from './explain'
import type { PanelT } from './i18n'

export interface Notice {
  text: string
  tone: 'info' | 'error'
}

/**
 * The one line that answers the person's last click, and the busy flag that keeps them from clicking twice.
 * A notice belongs to the task the panel showed when it was said (`about`): once the panel shows another task,
 * "Canceled." or "no LLM configured" would read as news about that one, so it is no longer shown.
 */
export function createNotices(t: PanelT, serverUrl: () => string, about: () => string | null = () => null) {
  const said = signal<(Notice & { about: string | null }) | null>(null)
  const notice = computed<Notice | null>(() => {
    const last = said.value
    return last && last.about === about() ? { text: last.text, tone: last.tone } : null
  })
  const busy = signal(false)
  const say = (text: string, tone: Notice['tone'] = 'info') => void (said.value = { text, tone, about: about() })
  return {
    notice,
    busy,
    say,
    fail: (text: string) => say(text, 'error'),
    /**
     * Runs what a click asked for; a failure becomes a notice that says what to do. A second click while one
     * runs does nothing: a disabled button does not stop a keyboard shortcut (Ctrl+Enter starts a task).
     */
    async run(what: () => Promise<void>) {
      if (busy.value) return
      busy.value = true
      try {
        await what()
      } catch (error) {
        say(explain(error, serverUrl(), t), 'error')
      } finally {
        busy.value = false
      }
    },
  }
}
export type Notices = ReturnType<typeof createNotices>

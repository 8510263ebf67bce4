import { signal } from '@preact/signals'
import { explain } from './explain'
import type { PanelT } from './i18n'

export interface Notice {
  text: string
  tone: 'info' | 'error'
}

/** The one line that answers the person's last click, and the busy flag that keeps them from clicking twice. */
export function createNotices(t: PanelT, serverUrl: () => string) {
  const notice = signal<Notice | null>(null)
  const busy = signal(false)
  const say = (text: string, tone: Notice['tone'] = 'info') => void (notice.value = { text, tone })
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

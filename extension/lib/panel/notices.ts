import { computed, signal } from '@preact/signals'
import { explain } from './explain'
import type { PanelT } from './i18n'

export interface Notice {
  text: string
  tone: 'info' | 'error'
}

/** What a notice is about: one task (or none followed), or the panel as a whole (the connection, the settings). */
type About = { task: string | null } | 'panel'

/** Where notices are said: `run` answers a click, `say` and `fail` speak on their own. */
export interface NoticeSink {
  busy: ReturnType<typeof signal<boolean>>
  say(text: string, tone?: Notice['tone']): void
  fail(text: string): void
  run(what: () => Promise<void>): Promise<void>
}

/**
 * The one line that answers the person's last click, and the busy flag that keeps them from clicking twice.
 * A notice belongs to the task the panel showed when the click was made (`about`), even when its answer comes after
 * the person switched tasks: once the panel shows another task, "Canceled." or "no LLM configured" would read as
 * news about that one, so it is no longer shown. What is about the panel itself (the connection, the settings, a
 * recording, the allowed writes) is said through `global`, and shows whatever task is followed.
 */
export function createNotices(t: PanelT, serverUrl: () => string, about: () => string | null = () => null) {
  const said = signal<(Notice & { about: About }) | null>(null)
  const notice = computed<Notice | null>(() => {
    const last = said.value
    if (!last) return null
    return last.about === 'panel' || last.about.task === about() ? { text: last.text, tone: last.tone } : null
  })
  const busy = signal(false)
  /** What the click being answered was about: what it says belongs there, wherever the panel is by then. */
  let answering: About | null = null
  const speak = (text: string, tone: Notice['tone'], where: About) => void (said.value = { text, tone, about: where })

  async function run(what: () => Promise<void>, where: About) {
    if (busy.value) return
    busy.value = true
    answering = where
    try {
      await what()
    } catch (error) {
      speak(explain(error, serverUrl(), t), 'error', where)
    } finally {
      answering = null
      busy.value = false
    }
  }

  const here = (): About => answering ?? { task: about() }
  const global: NoticeSink = {
    busy,
    say: (text, tone = 'info') => speak(text, tone, 'panel'),
    fail: (text) => speak(text, 'error', 'panel'),
    run: (what) => run(what, 'panel'),
  }
  return {
    notice,
    busy,
    say: (text: string, tone: Notice['tone'] = 'info') => speak(text, tone, here()),
    fail: (text: string) => speak(text, 'error', here()),
    /** Said about a task the panel shows from now on (a task just started), whatever the click was made on. */
    sayAbout: (taskId: string, text: string, tone: Notice['tone'] = 'info') => speak(text, tone, { task: taskId }),
    /**
     * Runs what a click asked for; a failure becomes a notice that says what to do. A second click while one
     * runs does nothing: a disabled button does not stop a keyboard shortcut (Ctrl+Enter starts a task).
     */
    run: (what: () => Promise<void>) => run(what, { task: about() }),
    /** Notices about the panel as a whole: shown whichever task is followed. */
    global,
  }
}
export type Notices = ReturnType<typeof createNotices>

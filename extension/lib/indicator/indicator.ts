import { TANDEM_UI_ATTR } from '../page/dom'
import type { IndicatorState } from './state'
import type { IndicatorText } from './text'

export type IndicatorCommand = 'resume' | 'stop'

export interface IndicatorDeps {
  doc: Document
  text: IndicatorText
  /** A trusted click on Resume or Stop. */
  onCommand: (command: IndicatorCommand) => void
}

export const INDICATOR_TAG = 'tandem-indicator'

// Everything is reset on the host so the page's styles cannot reach in, and only the buttons take the pointer:
// the agent's hit tests and the person's clicks go through the rest to the page below.
const STYLE = `
:host { all: initial !important; position: fixed !important; left: 50% !important; bottom: 16px !important;
  transform: translateX(-50%) !important; z-index: 2147483646 !important; pointer-events: none !important;
  display: block !important; width: max-content !important; max-width: calc(100vw - 24px) !important; }
:host([data-state="idle"]), :host([data-state="hidden"]), :host([data-concealed]) { display: none !important; }
.bar { display: flex; align-items: center; gap: 10px; padding: 8px 14px; border-radius: 18px;
  font: 13px/1.3 system-ui, -apple-system, "Segoe UI", "PingFang SC", "Microsoft YaHei", sans-serif;
  color: #fff; background: rgba(32, 33, 36, 0.88); box-shadow: 0 2px 10px rgba(0, 0, 0, 0.3);
  box-sizing: border-box; }
.message { min-width: 0; overflow-wrap: anywhere; }
button { white-space: nowrap; }
.dot { width: 8px; height: 8px; border-radius: 50%; background: #34a853; flex: none; }
:host([data-state="takeover"]) .dot, :host([data-state="question"]) .dot { background: #fbbc04; }
:host([data-state="approval"]) .dot { background: #ea4335; }
.actions { display: none; gap: 6px; }
:host([data-state="takeover"]) .actions { display: flex; }
button { pointer-events: auto; font: inherit; cursor: pointer; border: 0; border-radius: 999px; padding: 4px 12px;
  color: #202124; background: #fff; }
button[data-command="stop"] { color: #fff; background: #d93025; }
`

/**
 * The unobtrusive bar Tandem shows in the task tab: a shadow root on a host marked as Tandem's own (so the
 * element tree, masking and target lookup skip it), never focused by itself, with its state on `data-state`.
 */
export function createIndicator(deps: IndicatorDeps) {
  const { doc, text } = deps
  const host = doc.createElement(INDICATOR_TAG)
  host.setAttribute(TANDEM_UI_ATTR, '')
  host.setAttribute('data-state', 'idle')
  const root = host.attachShadow({ mode: 'open' })
  root.innerHTML = `<style>${STYLE}</style><div class="bar" role="status" aria-live="polite"><span class="dot"></span><span class="message"></span><span class="actions"><button type="button" data-command="resume"></button><button type="button" data-command="stop"></button></span></div>`
  const message = root.querySelector('.message')!
  const resume = root.querySelector<HTMLButtonElement>('button[data-command=resume]')!
  const stop = root.querySelector<HTMLButtonElement>('button[data-command=stop]')!
  resume.textContent = text('resume')
  stop.textContent = text('stop')
  host.setAttribute('aria-label', text('label'))
  let state: IndicatorState = 'idle'

  for (const button of [resume, stop]) {
    button.addEventListener('click', (event) => {
      // The page can reach an open shadow root: only the person's own click counts.
      if (!event.isTrusted || state !== 'takeover') return
      deps.onCommand(button.dataset.command as IndicatorCommand)
    })
  }

  function attach() {
    if (!host.isConnected) (doc.documentElement ?? doc).appendChild(host)
  }

  return {
    host,
    state: () => state,
    set(next: IndicatorState) {
      state = next
      host.setAttribute('data-state', next)
      message.textContent = next === 'ongoing' || next === 'takeover' || next === 'approval' || next === 'question' ? text(next) : ''
      if (next !== 'idle') attach()
    },
    /** Whether an event happened on the indicator itself (its buttons are not the page). */
    owns(event: Event): boolean {
      return event.composedPath().includes(host)
    },
    /** Hides the indicator for a screenshot; returns what shows it again. */
    conceal(): () => void {
      host.setAttribute('data-concealed', '')
      return () => host.removeAttribute('data-concealed')
    },
  }
}
export type Indicator = ReturnType<typeof createIndicator>

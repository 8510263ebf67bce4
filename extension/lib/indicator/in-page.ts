import { ContentEventReply, type ContentEvent } from '../messages'
import { createIndicator } from './indicator'
import type { IndicatorState } from './state'
import { watchForTakeover } from './takeover-watch'
import { indicatorText } from './text'

const OWN_INPUT_TAIL_MS = 150

export interface InPageDeps {
  win: Window
  /** runtime.sendMessage to the worker. */
  send: (event: ContentEvent) => Promise<unknown>
}

/**
 * The indicator and the takeover watch of one document: the worker sets the state; the person's input while
 * the agent is in control, or a press of Resume / Stop, goes to the worker, whose answer is the new state.
 */
export function createInPageIndicator(deps: InPageDeps) {
  const indicator = createIndicator({
    doc: deps.win.document,
    text: indicatorText(deps.win.navigator.language),
    onCommand: (command) => void tell({ kind: 'indicator-command', command }, indicator.state()),
  })
  /** Tandem's own trusted input under way: its events are `isTrusted` too, and are not the person's. */
  let ownInput = 0
  const watch = watchForTakeover({
    win: deps.win,
    armed: () => indicator.state() === 'ongoing' && ownInput === 0,
    owns: (event) => indicator.owns(event),
    onTakeover: (input) => {
      // Shown at once: the person should not wait for the server to see that they have the page.
      indicator.set('takeover')
      void tell({ kind: 'takeover', input }, 'ongoing')
    },
  })

  function set(state: IndicatorState) {
    indicator.set(state)
    if (state === 'ongoing') watch.rearm()
  }

  /** Sends an event; without a usable answer the indicator goes back to `fallback`. */
  async function tell(event: ContentEvent, fallback: IndicatorState) {
    let state = fallback
    try {
      const reply = ContentEventReply.safeParse(await deps.send(event))
      if (reply.success) state = reply.data.state
    } catch {
      // the worker is unreachable: nothing changed on its side
    }
    set(state)
  }

  /** Runs Tandem's own trusted input: the takeover watch looks away until its events have arrived. */
  async function own<T>(run: () => Promise<T>): Promise<T> {
    ownInput++
    try {
      return await run()
    } finally {
      // The debugger answers once the page handled the input; a moment more covers events it queued after.
      setTimeout(() => ownInput--, OWN_INPUT_TAIL_MS)
    }
  }

  return { set, state: () => indicator.state(), conceal: () => indicator.conceal(), host: indicator.host, own }
}

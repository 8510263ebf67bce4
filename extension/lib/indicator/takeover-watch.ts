import type { TakeoverInput } from './state'

export interface TakeoverWatchDeps {
  win: Pick<Window, 'addEventListener' | 'removeEventListener'>
  /** Whether the agent is in control right now: only then does the person's input take it over. */
  armed: () => boolean
  /** Events on Tandem's own indicator are not the page. */
  owns: (event: Event) => boolean
  onTakeover: (input: TakeoverInput) => void
}

/** The person's ways of acting on a page; pointer moves and focus changes are not acting. */
const INPUTS: Record<string, TakeoverInput> = {
  pointerdown: 'pointer',
  mousedown: 'pointer',
  keydown: 'key',
  wheel: 'wheel',
  touchstart: 'touch',
}

/**
 * Listens for the person's own input in the page (seed 000 §2.1 rule 4). Tandem's actions dispatch synthetic
 * events, which are never `isTrusted`, so the agent can never take the page over from itself.
 * Reports at most once until re-armed: a drag or a burst of keys is one takeover.
 */
export function watchForTakeover(deps: TakeoverWatchDeps) {
  let reported = false
  const listener = (event: Event) => {
    if (!event.isTrusted || !deps.armed()) return
    if (deps.owns(event)) return
    if (reported) return
    reported = true
    deps.onTakeover(INPUTS[event.type]!)
  }
  const options = { capture: true, passive: true } as const
  for (const type of Object.keys(INPUTS)) deps.win.addEventListener(type, listener, options)
  return {
    /** The agent is in control again (or the takeover was not accepted): the next input counts. */
    rearm() {
      reported = false
    },
    stop() {
      for (const type of Object.keys(INPUTS)) deps.win.removeEventListener(type, listener, options)
    },
  }
}

import type { Placers } from './draft'
import { str } from './draft'
import type { ReplayPause } from './types'

/** The times the task was paused, each with when and why it went on. */
export const pausePlacers: Placers = {
  'task.paused'(draft, event) {
    const pause: ReplayPause = { at: event.ts, from: event.data.from, reason: str(event.data.reason) }
    draft.openPause = pause
    draft.replay.pauses.push(pause)
    draft.replay.timeline.push({ kind: 'pause', pause })
  },
  'task.resumed'(draft, event) {
    const pause = draft.openPause
    if (pause) {
      pause.resumedAt = event.ts
      pause.resumeReason = str(event.data.reason)
    }
    draft.openPause = undefined
  },
}

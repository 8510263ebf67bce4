import type { ObservationError, ObservationInput } from '#protocol'
import type { SocketLeak } from './barrier-watch'
import type { Hold } from './write-barrier'
import type { WriteBlock } from './write-block'

// What a step comes to when the write barrier held, blocked or let go of what the page sent.

/** A settle that stopped because the barrier holds the write the page's navigation carries. */
export const HELD = Symbol('held')

/**
 * The step in the light of what the fallback blocked: a blocked write makes it ask the person (CONFIRMATION_REQUIRED
 * with what was blocked), and it runs again once approved; nothing reached the site.
 */
export function withBlocked(observation: ObservationInput, blocked: ReturnType<WriteBlock['blocked']>): ObservationInput {
  const dropped = blocked.dropped.length ? { dropped: [...(observation.dropped ?? []), ...blocked.dropped].slice(0, 50) } : {}
  if (!blocked.writes.length) return { ...observation, ...dropped }
  const first = blocked.writes[0]!.request
  const error: ObservationError = {
    code: 'CONFIRMATION_REQUIRED',
    message: `The page tried to send ${first.method} ${first.origin}${first.path} while the step ran; the browser blocked it before it left (Tandem could not hold it to let it go later). Approve to run the step again.`,
  }
  return { ...observation, ...dropped, status: 'failed', errors: [error, ...(observation.errors ?? [])], blocked: blocked.writes }
}

/** True when `hold` says something was held before `answer` settled; false once the answer is in. */
export function firstOf(answer: Promise<unknown>, hold: Promise<boolean>): Promise<boolean> {
  return Promise.race([answer.then(() => false, () => false), hold.then((held) => (held ? true : answer.then(() => false, () => false)))])
}

export const heldWrite = (hold: Hold) => ({ id: hold.id, reason: hold.reason ?? 'held', request: hold.request })

export const notHeld = (): ObservationError => ({
  code: 'ACTION_FAILED',
  message: 'What the page tried to send is no longer held (the page went on or the browser let go of it), so Tandem did not send it; look at the page before trying again.',
})

/**
 * The step in the light of WebSocket messages that left unheld while it ran (the barrier's backstop): they were
 * never asked about and may have reached the site, so the step fails and the task stops on it.
 */
export function withLeaks(observation: ObservationInput, leaks: readonly SocketLeak[]): ObservationInput {
  if (!leaks.length) return observation
  const first = leaks[0]!
  const where = first.url ? `the WebSocket ${first.url}` : 'a WebSocket the page opened before Tandem watched it'
  const more = leaks.length > 1 ? ` (and ${leaks.length - 1} more)` : ''
  const error: ObservationError = {
    code: 'WRITE_UNHELD',
    message: `While the step ran, the page sent a message of ${first.bytes} bytes over ${where}${more} that Tandem could not hold; it was not asked about and may have reached the site. The task stops here: check the page and the site before going on.`,
  }
  return { ...observation, status: 'failed', errors: [error, ...(observation.errors ?? [])] }
}

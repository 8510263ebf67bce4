import { computed, signal, type ReadonlySignal } from '@preact/signals'
import { isServerError } from '../server/errors'

/**
 * What the panel's own newest call to the server found: an answer (even a refusal), a refusal of the token, or
 * none, and why none.
 */
export type Reach = 'answering' | 'unauthorized' | 'not_answering' | 'down'

export interface ReachDeps {
  /** The server the panel talks to now: what a call found about another one says nothing about it. */
  serverUrl: () => string
  /** The server answers again after it did not: the worker need not wait out its back-off. */
  back: () => void
  /** Every finding, as it comes: the store weighs it against what the worker and the person's test found. */
  heard?: (reach: Reach) => void
}

/** What a call's outcome says about the server; null when no call reached the network (no token, the caller's abort). */
function reachOf(error: unknown): Reach | null {
  if (!isServerError(error) || error.code === 'NOT_CONFIGURED') return null
  if (error.code === 'UNREACHABLE') return 'down'
  if (error.code === 'NOT_ANSWERING') return 'not_answering'
  if (error.code === 'UNAUTHORIZED') return 'unauthorized'
  return 'answering'
}

/**
 * The panel's client, watched: every call it makes tells whether the server answers. The panel polls the task it
 * shows every second, so a server that hangs shows here within one call's deadline, while the worker may still be
 * waiting out a long-poll; and the panel's first answer after that tells the worker to try again now.
 */
export function watchReach<C extends object>(client: C, deps: ReachDeps): { client: C; reach: ReadonlySignal<Reach | null> } {
  const found = signal<{ serverUrl: string; reach: Reach } | null>(null)

  function seen(serverUrl: string, reach: Reach | null) {
    if (!reach) return
    const before = found.value
    found.value = { serverUrl, reach }
    const answered = (r: Reach) => r === 'answering' || r === 'unauthorized'
    if (answered(reach) && before && before.serverUrl === serverUrl && !answered(before.reach)) deps.back()
    deps.heard?.(reach)
  }

  const watched = Object.fromEntries(
    Object.entries(client).map(([name, call]) => [
      name,
      typeof call !== 'function'
        ? call
        : async (...args: unknown[]) => {
            const serverUrl = deps.serverUrl()
            try {
              const value = await call(...args)
              seen(serverUrl, 'answering')
              return value
            } catch (error) {
              seen(serverUrl, reachOf(error))
              throw error
            }
          },
    ]),
  ) as C

  return {
    client: watched,
    reach: computed(() => {
      const last = found.value
      return last && last.serverUrl === deps.serverUrl() ? last.reach : null
    }),
  }
}

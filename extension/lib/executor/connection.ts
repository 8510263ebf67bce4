import { isNoAnswer, isServerError, ServerError } from '../server/errors'
import { activityItem, updateActivity } from './state'

export type CallResult<T> = { ok: true; value: T } | { ok: false; error: ServerError }

export interface ConnectionDeps {
  now: () => number
  sleep: (ms: number) => Promise<void>
  serverUrl: () => Promise<string>
}

/** Seconds to wait after the nth failure in a row: 30 s (the alarm period), doubling, at most 5 minutes. */
export const backoffMs = (failures: number) => Math.min(30_000 * 2 ** Math.max(0, failures - 1), 300_000)

/** A brief blip (a restarting server) is retried at once; anything longer backs off and says so in the panel. */
const RETRIES_MS = [1000, 3000]

const transient = (error: ServerError) => isNoAnswer(error) || error.code === 'INTERNAL' || (error.status ?? 0) >= 502

export function createConnection(deps: ConnectionDeps) {
  /** Whether the panel was told the connection is fine since the last failure (this module alone says either). */
  let toldOk = false

  async function failed(error: ServerError) {
    toldOk = false
    const activity = await activityItem.getValue()
    const failures = (activity?.failures ?? 0) + 1
    const serverUrl = await deps.serverUrl()
    if (error.code === 'UNAUTHORIZED') {
      await updateActivity({ connection: 'unauthorized', failures, retryAt: null, message: `The server at ${serverUrl} rejected the token: paste the one it printed into Settings.` })
    } else if (error.code === 'NOT_CONFIGURED') {
      await updateActivity({ connection: 'not_configured', failures, retryAt: null, message: error.message })
    } else {
      const retryAt = deps.now() + backoffMs(failures)
      const at = new Date(retryAt).toLocaleTimeString()
      const connection = error.code === 'NOT_ANSWERING' ? 'not_answering' : 'down'
      await updateActivity({ connection, failures, retryAt, message: `${error.message} Next try at ${at}.` })
    }
  }

  /**
   * A call that ran out its deadline was no blip: the panel says so now, not after the retries (each of which may
   * take as long again). The back-off is decided, as for any failure, once the retries are spent.
   */
  const notAnswering = (error: ServerError) => {
    toldOk = false
    return updateActivity((activity) =>
      activity.connection === 'not_answering' && activity.retryAt === null
        ? {}
        : { connection: 'not_answering', retryAt: null, message: `${error.message} Trying again.` },
    )
  }

  return {
    /** Whether a wake that nobody asked for (the alarm) should call the server now. */
    async mayTry(): Promise<boolean> {
      const activity = await activityItem.getValue()
      if (!activity || activity.connection === 'ok' || activity.connection === 'unknown') return true
      // A wrong token or missing settings only change when the person edits them (which wakes us with force).
      if (activity.connection !== 'down' && activity.connection !== 'not_answering') return false
      return activity.retryAt === null || activity.retryAt - deps.now() < 2000
    },

    async call<T>(fn: () => Promise<T>): Promise<CallResult<T>> {
      for (let attempt = 0; ; attempt++) {
        try {
          const value = await fn()
          // Read once after a failure (or a fresh worker), not after every call of a task's steps.
          if (!toldOk) {
            const activity = await activityItem.getValue()
            if (activity?.connection !== 'ok') await updateActivity({ connection: 'ok', failures: 0, retryAt: null, message: 'Connected.' })
            toldOk = true
          }
          return { ok: true, value }
        } catch (error) {
          const serverError = isServerError(error)
            ? error
            : new ServerError((error as Error)?.name === 'TimeoutError' ? 'NOT_ANSWERING' : 'BAD_RESPONSE', `The server call failed: ${(error as Error)?.message ?? error}`)
          if (transient(serverError) && attempt < RETRIES_MS.length) {
            if (serverError.code === 'NOT_ANSWERING') await notAnswering(serverError)
            await deps.sleep(RETRIES_MS[attempt])
            continue
          }
          if (transient(serverError) || ['UNAUTHORIZED', 'NOT_CONFIGURED'].includes(serverError.code)) await failed(serverError)
          return { ok: false, error: serverError }
        }
      }
    },
  }
}
export type Connection = ReturnType<typeof createConnection>

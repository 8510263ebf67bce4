/**
 * One call's deadline, for every client of the Tandem server (the extension's worker and panel, the console).
 * A connection that is accepted and never answered (a laptop waking from sleep, a proxy, a stuck server) makes
 * a plain fetch wait for ever; a deadline turns that into an error the caller can retry and tell the person about.
 */
export interface Deadline {
  /** For fetch: aborted when the deadline passes or the caller's own signal aborts. */
  readonly signal: AbortSignal
  /** True once the deadline (not the caller) ended the call. */
  readonly expired: boolean
  /**
   * Settles with `work`, or rejects as soon as the signal aborts: the body read (`res.json()`, a stream's next
   * chunk) is inside the deadline too, whether or not the fetch implementation ties its body to the signal.
   */
  within<T>(work: Promise<T>): Promise<T>
  /** Gives the call `ms` more from now: a download may take as long as it needs while its bytes keep coming. */
  extend(ms: number): void
  /** The call is over: no timer stays behind, and the caller's signal is let go of. */
  clear(): void
}

/** What the signal aborts with when the deadline passes (the name fetch uses for AbortSignal.timeout). */
export class DeadlineExceeded extends Error {
  override readonly name = 'TimeoutError'
  constructor(readonly ms: number) {
    super(`No answer within ${ms} ms.`)
  }
}

/**
 * Starts a deadline of `ms`, joined with the caller's `signal` if any. It runs on setTimeout (not
 * AbortSignal.timeout) so that tests with fake timers can move it, and links the caller's signal by hand, which
 * works where AbortSignal.any does not exist.
 */
export function startDeadline(ms: number, signal?: AbortSignal): Deadline {
  const controller = new AbortController()
  let expired = false
  let limit = ms
  const expire = () => {
    expired = true
    controller.abort(new DeadlineExceeded(limit))
  }
  let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(expire, ms)
  const fromCaller = () => controller.abort(signal!.reason)
  if (signal?.aborted) fromCaller()
  else signal?.addEventListener('abort', fromCaller, { once: true })

  return {
    signal: controller.signal,
    get expired() {
      return expired
    },
    within<T>(work: Promise<T>): Promise<T> {
      const own = controller.signal
      if (own.aborted) {
        work.catch(() => undefined)
        return Promise.reject(own.reason)
      }
      return new Promise<T>((resolve, reject) => {
        const stop = () => reject(own.reason)
        own.addEventListener('abort', stop, { once: true })
        work.then(resolve, reject).finally(() => own.removeEventListener('abort', stop))
      })
    },
    extend(more: number) {
      if (controller.signal.aborted) return
      clearTimeout(timer)
      limit = more
      timer = setTimeout(expire, more)
    },
    clear() {
      clearTimeout(timer)
      timer = undefined
      signal?.removeEventListener('abort', fromCaller)
    },
  }
}

/**
 * A body read chunk by chunk within `deadline`, each chunk giving it `idleMs` more: a big download may take as long
 * as it needs while its bytes keep coming, and one that stops is cut `idleMs` after its last chunk.
 */
export async function readBytes(res: Response, deadline: Deadline, idleMs: number): Promise<Blob> {
  const type = res.headers.get('content-type') ?? ''
  if (!res.body) return deadline.within(res.blob())
  const reader = res.body.getReader()
  const chunks: BlobPart[] = []
  try {
    for (;;) {
      deadline.extend(idleMs)
      const { done, value } = await deadline.within(reader.read())
      if (done) return new Blob(chunks, { type })
      chunks.push(value)
    }
  } catch (error) {
    void reader.cancel().catch(() => undefined)
    throw error
  }
}

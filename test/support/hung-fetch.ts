/** How a fake server treats a request, for the deadline tests of every client (the extension's, the console's). */
export type Behaviour =
  /** Accepts the connection and never answers (a stuck server, a proxy, a laptop waking from sleep). */
  | 'hang'
  /** Sends the headers, then nothing more. */
  | 'stall'
  /** Sends the headers, then nothing more, over a body that ignores the abort. */
  | 'stall-deaf'
  /** Never answers, and ignores the abort too: the deadline may not rely on fetch honouring the signal. */
  | 'deaf'
  /** Nothing listens: the connection is refused at once. */
  | 'refuse'

export interface Sent {
  url: string
  init: RequestInit
  signal: AbortSignal
}

/** A fetch whose requests all behave one way; records what was asked, with the signal each was given. */
export function fakeFetch(behaviour: Behaviour) {
  const sent: Sent[] = []
  const fetch = ((input: RequestInfo | URL, init: RequestInit = {}) => {
    const signal = init.signal!
    sent.push({ url: String(input), init, signal })
    if (behaviour === 'refuse') return Promise.reject(new TypeError('Failed to fetch'))
    if (behaviour === 'deaf') return new Promise<Response>(() => undefined)
    if (behaviour === 'hang') return new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)))
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        // Real fetch errors the body when the signal aborts; a client must not depend on it.
        if (behaviour === 'stall') signal.addEventListener('abort', () => controller.error(signal.reason))
      },
    })
    return Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': 'application/json' } }))
  }) as typeof globalThis.fetch
  return { fetch, sent }
}

/** The promise's outcome so far, without awaiting it. */
export function track<T>(promise: Promise<T>) {
  const state: { settled: boolean; error?: unknown; value?: T } = { settled: false }
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error) => Object.assign(state, { settled: true, error }),
  )
  return state
}

/** Runs callbacks for one key one at a time, in arrival order; different keys run in parallel. */
export function createKeyedMutex() {
  const tails = new Map<string, Promise<unknown>>()
  return async function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve()
    let release!: () => void
    const done = new Promise<void>((r) => (release = r))
    const tail = previous.then(() => done)
    tails.set(key, tail)
    await previous
    try {
      return await fn()
    } finally {
      release()
      if (tails.get(key) === tail) tails.delete(key)
    }
  }
}
export type WithLock = ReturnType<typeof createKeyedMutex>

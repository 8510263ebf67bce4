import { signal } from '@preact/signals'
import { isNoAnswer } from '../server/errors'

export interface ScreenshotDeps {
  /** The artifact's bytes; the route needs the token, so an <img src> cannot fetch it itself. */
  load: (taskId: string, name: string) => Promise<Blob>
  objectUrl: (blob: Blob) => string
  revoke: (url: string) => void
}

/** A task's screenshots as object URLs, fetched once each and let go of when the panel moves to another task. */
export function createScreenshots(deps: ScreenshotDeps) {
  const urls = signal<Record<string, string>>({})
  let owner: string | null = null
  /** Bumped by every clear: a load started before it belongs to a view that is gone, even if it was the same task. */
  let generation = 0
  const loading = new Set<string>()
  const failed = new Set<string>()

  function clear() {
    for (const url of Object.values(urls.value)) deps.revoke(url)
    urls.value = {}
    loading.clear()
    failed.clear()
    owner = null
    generation += 1
  }

  async function want(taskId: string, names: string[]) {
    if (owner !== taskId) clear()
    owner = taskId
    const mine = generation
    const missing = [...new Set(names)].filter((n) => !urls.value[n] && !loading.has(n) && !failed.has(n))
    await Promise.all(
      missing.map(async (name) => {
        loading.add(name)
        try {
          const blob = await deps.load(taskId, name)
          // The panel moved on while this loaded: an object URL made now would never be revoked.
          if (mine !== generation) return
          urls.value = { ...urls.value, [name]: deps.objectUrl(blob) }
        } catch (error) {
          // A server that did not answer may answer the next poll; one that refused the artifact will not.
          if (mine === generation && !isNoAnswer(error)) failed.add(name)
        } finally {
          if (mine === generation) loading.delete(name)
        }
      }),
    )
  }

  return { urls, want, clear }
}
export type Screenshots = ReturnType<typeof createScreenshots>

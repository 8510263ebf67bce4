import { signal } from '@preact/signals'

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
  const loading = new Set<string>()
  const failed = new Set<string>()

  function clear() {
    for (const url of Object.values(urls.value)) deps.revoke(url)
    urls.value = {}
    loading.clear()
    failed.clear()
    owner = null
  }

  async function want(taskId: string, names: string[]) {
    if (owner !== taskId) clear()
    owner = taskId
    const missing = [...new Set(names)].filter((n) => !urls.value[n] && !loading.has(n) && !failed.has(n))
    await Promise.all(
      missing.map(async (name) => {
        loading.add(name)
        try {
          const blob = await deps.load(taskId, name)
          // The panel moved on while this loaded: an object URL made now would never be revoked.
          if (owner !== taskId) return
          urls.value = { ...urls.value, [name]: deps.objectUrl(blob) }
        } catch {
          if (owner === taskId) failed.add(name)
        } finally {
          loading.delete(name)
        }
      }),
    )
  }

  return { urls, want, clear }
}
export type Screenshots = ReturnType<typeof createScreenshots>

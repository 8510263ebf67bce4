import type { NavigationFailure } from '#protocol'
import { isFailedStatus, navigationFailureReason } from '#protocol'

type Listener<T> = { addListener(cb: (details: T) => void): void; removeListener(cb: (details: T) => void): void }
type FilteredListener<T> = {
  addListener(cb: (details: T) => void, filter: { urls: string[]; types?: string[] }): void
  removeListener(cb: (details: T) => void): void
}

export interface NavigationWatchApis {
  webNavigation: { onErrorOccurred: Listener<{ tabId: number; frameId: number; url: string; error: string }> }
  /** Only reports pages on sites the person granted (the only ones a navigate step opens). */
  webRequest: { onCompleted: FilteredListener<{ tabId: number; type: string; url: string; statusCode: number }> }
}

export interface NavigationWatch {
  /**
   * Why the page the tab was sent to did not come up, or null. The browser may report a network error only as its
   * error page settles: a step that could not read its page waits up to `waitMs` for the report.
   */
  failure(tabId: number, waitMs?: number): Promise<NavigationFailure | null>
  stop(): void
}

/**
 * Watches the main frame of every tab while a navigate step runs (its tab may not exist yet when it starts): the
 * network error the browser gives (webNavigation: no host permission needed) and the HTTP status of the page
 * that loaded (webRequest).
 */
export function watchNavigation(apis: NavigationWatchApis): NavigationWatch {
  const seen = new Map<number, NavigationFailure | 'ok'>()
  const waiting = new Set<() => void>()
  const note = (tabId: number, outcome: NavigationFailure | 'ok') => {
    seen.set(tabId, outcome)
    for (const wake of waiting) wake()
  }
  const onError = (d: { tabId: number; frameId: number; url: string; error: string }) => {
    if (d.frameId !== 0) return
    const reason = navigationFailureReason(d.error)
    if (reason) note(d.tabId, { reason, url: d.url, netError: d.error })
  }
  const onCompleted = (d: { tabId: number; type: string; url: string; statusCode: number }) => {
    if (d.type !== 'main_frame' || d.tabId < 0) return
    note(d.tabId, isFailedStatus(d.statusCode) ? { reason: 'http-status', url: d.url, status: d.statusCode } : 'ok')
  }
  apis.webNavigation.onErrorOccurred.addListener(onError)
  apis.webRequest.onCompleted.addListener(onCompleted, { urls: ['http://*/*', 'https://*/*'], types: ['main_frame'] })

  const known = (tabId: number) => {
    const outcome = seen.get(tabId)
    return outcome && outcome !== 'ok' ? outcome : null
  }

  return {
    async failure(tabId, waitMs = 0) {
      if (seen.has(tabId) || waitMs <= 0) return known(tabId)
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer)
          waiting.delete(wake)
          resolve()
        }
        const wake = () => seen.has(tabId) && done()
        const timer = setTimeout(done, waitMs)
        waiting.add(wake)
      })
      return known(tabId)
    },
    stop() {
      apis.webNavigation.onErrorOccurred.removeListener(onError)
      apis.webRequest.onCompleted.removeListener(onCompleted)
      for (const wake of waiting) wake()
    },
  }
}

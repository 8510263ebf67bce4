import type { Tab, TabsApi } from './task-tab'

export interface LoadOptions {
  timeoutMs: number
  /** Set right after starting a navigation: a "complete" that still belongs to the old page does not count. */
  from?: { url: string | undefined }
  pollMs?: number
  /** Gives up waiting with 'stopped' when this says so (a write the barrier holds keeps the tab loading). */
  stop?: () => Promise<boolean>
  sleep?: (ms: number) => Promise<void>
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Waits until the tab has finished loading; returns the tab, or null if it closed, or 'timeout' (or 'stopped'). */
export async function waitForTabLoad(tabs: TabsApi, tabId: number, options: LoadOptions): Promise<Tab | null | 'timeout' | 'stopped'> {
  const sleep = options.sleep ?? defaultSleep
  // A navigation step waits for this poll: a page loaded is noticed within 20 ms, at the cost of a tabs.get each time.
  const pollMs = options.pollMs ?? 20
  const started = Date.now()
  let sawLoading = false
  for (;;) {
    const tab = await tabs.get(tabId).catch(() => null)
    if (!tab) return null
    if (tab.status === 'loading') sawLoading = true
    const settled =
      tab.status === 'complete' &&
      (!options.from || sawLoading || (tab.url !== options.from.url && !tab.pendingUrl) || Date.now() - started > 1000)
    if (settled) return tab
    if (Date.now() - started >= options.timeoutMs) return 'timeout'
    if (await options.stop?.()) return 'stopped'
    await sleep(pollMs)
  }
}

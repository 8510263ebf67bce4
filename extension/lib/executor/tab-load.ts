import type { WxtBrowser as Browser } from 'wxt/browser'
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

type TabUpdates = Browser['tabs']['onUpdated']

/** Waits until the tab has finished loading; returns the tab, or null if it closed, or 'timeout' (or 'stopped'). */
export async function waitForTabLoad(tabs: TabsApi, tabId: number, options: LoadOptions): Promise<Tab | null | 'timeout' | 'stopped'> {
  const sleep = options.sleep ?? defaultSleep
  // The tab is looked at again as soon as the browser says its loading changed, and every 20 ms besides (an event
  // can come between a look and the wait that follows it).
  const pollMs = options.pollMs ?? 20
  const updates = (tabs as TabsApi & { onUpdated?: TabUpdates }).onUpdated
  let changed = false
  let wake: (() => void) | null = null
  const listener: Parameters<TabUpdates['addListener']>[0] = (id, change) => {
    if (id !== tabId || (!change.status && !change.url)) return
    changed = true
    wake?.()
  }
  updates?.addListener(listener)
  const nap = () => {
    if (changed) return Promise.resolve()
    return Promise.race([sleep(pollMs), new Promise<void>((r) => (wake = r))])
  }
  try {
    const started = Date.now()
    let sawLoading = false
    for (;;) {
      changed = false
      const tab = await tabs.get(tabId).catch(() => null)
      if (!tab) return null
      if (tab.status === 'loading') sawLoading = true
      const settled =
        tab.status === 'complete' &&
        (!options.from || sawLoading || (tab.url !== options.from.url && !tab.pendingUrl) || Date.now() - started > 1000)
      if (settled) return tab
      if (Date.now() - started >= options.timeoutMs) return 'timeout'
      if (await options.stop?.()) return 'stopped'
      await nap()
      wake = null
    }
  } finally {
    updates?.removeListener(listener)
  }
}

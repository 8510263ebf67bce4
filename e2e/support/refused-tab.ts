import type { Page } from 'playwright-core'
import type { Harness } from './harness'

// Chrome's extension API, inside the service worker's evaluate.
declare const chrome: any

/**
 * A tab in front at `url` whose debugging the person canceled, as Chrome's Cancel on its "started debugging" bar
 * leaves it (createTabDebugger will not attach it). `restore` forgets the refusal and closes the tab.
 */
export async function openRefusedTab(h: Harness, url: string): Promise<{ tab: Page; restore: () => Promise<void> }> {
  const tab = await h.ext.context.newPage()
  await tab.goto(url)
  await tab.bringToFront()
  const sw = await h.ext.worker()
  await sw.evaluate(async (at: string) => {
    // Another tab may show the same page: this one is the one in front.
    const [found] = await chrome.tabs.query({ url: at, active: true })
    await chrome.storage.session.set({ 'tandem.debugger.declined': [found!.id] })
  }, url)
  return {
    tab,
    restore: async () => {
      await sw.evaluate(() => chrome.storage.session.remove('tandem.debugger.declined'))
      await tab.close()
    },
  }
}

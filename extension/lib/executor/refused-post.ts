import type { Hold } from './held-store'
import { waitForTabLoad } from './tab-load'
import type { TabsApi } from './task-tab'

/**
 * A form post the person refused fails in the browser, which leaves the tab on its error page at the form's address.
 * The page the form was on is what the task goes on from (as it would have had the post never been tried): the tab
 * goes back to it. Only the tab's own document counts: a frame's post failing leaves the page as it is.
 */
export async function backFromRefusedPosts(tabs: Pick<TabsApi, 'get' | 'goBack'>, refused: readonly Hold[], settleMs = 1000): Promise<void> {
  const posts = refused.filter((h) => h.request.kind === 'form' && !h.sessionId && h.via !== 'socket')
  for (const tabId of new Set(posts.map((h) => h.tabId))) {
    const addresses = new Set(posts.filter((h) => h.tabId === tabId).map((h) => `${h.request.origin}${h.request.path}`))
    const onErrorPage = async () => {
      const tab = await tabs.get(tabId).catch(() => null)
      const url = tab?.url && URL.canParse(tab.url) ? new URL(tab.url) : null
      return !!url && addresses.has(`${url.origin}${url.pathname}`)
    }
    // The error page commits a moment after the request fails.
    const until = Date.now() + settleMs
    let there = await onErrorPage()
    while (!there && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50))
      there = await onErrorPage()
    }
    if (!there) continue
    const errorPage = (await tabs.get(tabId).catch(() => null))?.url
    await tabs.goBack(tabId).catch(() => undefined)
    await waitForTabLoad(tabs as never, tabId, { timeoutMs: 10_000, from: { url: errorPage } })
  }
}

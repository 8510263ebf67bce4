import type { WxtBrowser as Browser } from 'wxt/browser'
import type { ObservationError } from '#protocol'

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i

const portOf = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80')

/**
 * The server's practice page for the starter skill: static, with no data and no API behind it, so a task may act
 * there. Only the exact folder counts; a step that leaves it for the console is refused like any server page.
 */
const DEMO_PAGE = /^\/demo\/(?:index\.html)?$/

/** The Tandem server's own pages, under any loopback name it answers to (its demo page excepted). */
export function isServerPage(url: URL, serverUrl: string): boolean {
  if (!URL.canParse(serverUrl)) return false
  const server = new URL(serverUrl)
  if (DEMO_PAGE.test(url.pathname)) return false
  if (url.origin === server.origin) return true
  return LOOPBACK.test(url.hostname) && LOOPBACK.test(server.hostname) && portOf(url) === portOf(server) && url.protocol === server.protocol
}

/** The match pattern a grant for this page's site takes. */
export const originPattern = (url: URL) => `${url.protocol}//${url.hostname}/*`

/**
 * Whether the extension may act on `rawUrl`: only web pages, never the server's own pages (a page there
 * could approve its own actions) and only sites the person granted. Returns the refusal, or null.
 */
export async function checkSiteAccess(
  permissions: Pick<Browser['permissions'], 'contains'>,
  rawUrl: string | undefined,
  serverUrl: string,
): Promise<ObservationError | null> {
  if (!rawUrl || !URL.canParse(rawUrl)) return { code: 'INVALID_TASK_TAB', message: 'The task tab shows no web page.' }
  const url = new URL(rawUrl)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { code: 'INVALID_TASK_TAB', message: `Tandem only acts on web pages, not on ${url.protocol} pages.` }
  }
  if (isServerPage(url, serverUrl)) return { code: 'INVALID_TASK_TAB', message: "Tandem never acts on its own server's pages." }
  const granted = await permissions.contains({ origins: [originPattern(url)] }).catch(() => false)
  if (!granted) {
    return { code: 'PERMISSION_DENIED', message: `Tandem may not act on ${url.origin} yet: authorise the site in the side panel.` }
  }
  return null
}

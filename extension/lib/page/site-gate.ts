import { fail } from './errors'
import { isTag } from './dom'

// Whether a granted host permission (a match pattern such as "https://*.example.com/*", "*://*/*" or
// "<all_urls>") covers `url`. Grants are per host: ports and paths are not part of them.
export function siteGranted(url: URL, pattern: string): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
  if (pattern === '<all_urls>') return true
  const match = /^(\*|https?):\/\/([^/]+)\//.exec(pattern)
  if (!match) return false
  const [, scheme, host] = match
  if (scheme !== '*' && `${scheme}:` !== url.protocol) return false
  const hostname = url.hostname.toLowerCase()
  const wanted = host!.toLowerCase().replace(/:\d+$/, '')
  if (wanted === '*') return true
  if (wanted.startsWith('*.')) return hostname === wanted.slice(2) || hostname.endsWith(wanted.slice(1))
  return hostname === wanted
}

/** Where activating the element would take the page: a link's address, or the address its form is sent to. */
export function destinationOf(el: Element, submits: HTMLFormElement | null): string | null {
  const link = el.closest('a[href], area[href]')
  if (link) return (link as HTMLAnchorElement).href
  if (!submits || submits.method === 'dialog') return null
  const formAction = isTag(el, 'button') || isTag(el, 'input') ? (el as HTMLButtonElement).formAction : ''
  return formAction && el.hasAttribute('formaction') ? formAction : submits.action
}

/**
 * The extension acts only on sites the person granted. A link or a form that leaves for any other site would
 * carry whatever its address holds (query text, form fields) there before Tandem could refuse the page: so the
 * step is refused before it is taken. `sites` absent means the caller did not say, and nothing is checked.
 */
export function assertStaysOnGrantedSites(win: Window, el: Element, submits: HTMLFormElement | null, sites: readonly string[] | undefined): void {
  if (!sites) return
  const raw = destinationOf(el, submits)
  if (!raw || !URL.canParse(raw)) return
  const url = new URL(raw)
  // javascript: and the like never leave the page; the risk gate already asks the person about them.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return
  if (url.origin === win.location.origin || sites.some((p) => siteGranted(url, p))) return
  fail('PERMISSION_DENIED', `this step would open ${url.origin}, a site Tandem may not act on; nothing was done (the person can authorise the site in the side panel)`, url.origin)
}

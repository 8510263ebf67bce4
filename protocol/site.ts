/**
 * Which site a host belongs to, for telling a page's own requests from third parties'. Pure code: the barrier
 * asks this for every request, so there is no Public Suffix List here, only the multi-part suffixes that the
 * write rules list (co.uk, com.cn, github.io, …); everything else is its last two labels.
 */

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/

/** The registrable domain (eTLD+1) of a host: "a.b.example.co.uk" → "example.co.uk". IPs and "localhost" are themselves. */
export function registrableDomain(host: string, suffixes: ReadonlySet<string>): string {
  const h = host.toLowerCase().replace(/\.$/, '')
  // An IPv6 host has colons (URL keeps its brackets); an IP has no registrable part to share.
  if (!h.includes('.') || h.includes(':') || IPV4.test(h)) return h
  const labels = h.split('.')
  for (let n = Math.min(3, labels.length - 1); n >= 2; n--) {
    if (suffixes.has(labels.slice(-n).join('.'))) return labels.slice(-(n + 1)).join('.')
  }
  return labels.slice(-2).join('.')
}

// A label as URL leaves a hostname: ASCII (IDNs become xn--), so anything else is a pattern such as `*`.
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/

/**
 * Whether a hostname (as URL gives it) names one site: an IP, localhost, or a name with a label of its own in front
 * of its public suffix. Not "com", "co.uk" or "github.io" (a suffix covers every site under it), not a single label
 * (an intranet name is ambiguous; localhost is the one that is not), not `*` or any other pattern.
 */
export function namesOneSite(hostname: string, suffixes: ReadonlySet<string>): boolean {
  const h = hostname.toLowerCase()
  if (h === 'localhost' || h.includes(':') || IPV4.test(h)) return true
  const labels = h.split('.')
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return false
  return !suffixes.has(h) && /[a-z]/.test(labels.at(-1)!)
}

const WEB = new Set(['http:', 'https:', 'ws:', 'wss:'])

/**
 * Whether `url` goes to another site than `page`. Unknown (undefined) without a page or for a scheme that has
 * no site (data:, blob:), so a caller never treats "don't know" as "third party".
 */
export function isThirdParty(url: URL | null, page: URL | null, suffixes: ReadonlySet<string>): boolean | undefined {
  if (!url || !page || !WEB.has(url.protocol) || !WEB.has(page.protocol)) return undefined
  return registrableDomain(url.hostname, suffixes) !== registrableDomain(page.hostname, suffixes)
}

/**
 * Whether a URL falls under a host entry: "sentry.io" covers "o1.ingest.sentry.io"; "facebook.com/tr" covers
 * "www.facebook.com/tr?id=1" but not "/tracking".
 */
export function matchesHostEntry(url: URL, entry: string): boolean {
  const slash = entry.indexOf('/')
  const host = (slash < 0 ? entry : entry.slice(0, slash)).toLowerCase()
  const h = url.hostname.toLowerCase()
  if (h !== host && !h.endsWith(`.${host}`)) return false
  if (slash < 0) return true
  const path = entry.slice(slash).replace(/\/$/, '')
  return url.pathname === path || url.pathname.startsWith(`${path}/`)
}

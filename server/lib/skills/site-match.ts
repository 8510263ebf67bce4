/** The hostname of a URL or of a bare host, lowercased, without a leading www. */
export function hostOf(site: string): string {
  const s = site.trim().toLowerCase()
  let host = s
  try {
    host = new URL(s.includes('://') ? s : `https://${s}`).hostname
  } catch {}
  return host.replace(/^www\./, '').replace(/\.$/, '')
}

/**
 * The key a site pattern is indexed under. `example.com` and `*.example.com` both cover example.com and
 * every subdomain: a skill for a shop also holds on its m. and item. hosts.
 */
export const siteKey = (pattern: string): string => hostOf(pattern.replace(/^\*\./, ''))

/** Every key that covers `host`: the host itself and each parent domain (a.b.c → a.b.c, b.c, c). */
export function hostKeys(host: string): string[] {
  const labels = hostOf(host).split('.').filter(Boolean)
  return labels.map((_, i) => labels.slice(i).join('.'))
}

/** Whether a skill's site pattern covers a hostname or URL. */
export const siteMatches = (pattern: string, site: string): boolean => hostKeys(site).includes(siteKey(pattern))

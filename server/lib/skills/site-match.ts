/** The hostname of a URL or of a bare host. */
export function hostOf(site: string): string {
  const s = site.trim().toLowerCase()
  try {
    return new URL(s.includes('://') ? s : `https://${s}`).hostname.replace(/^www\./, '')
  } catch {
    return s
  }
}

/** Whether a skill's site pattern (example.com, *.example.com) covers `host` (subdomains included). */
export function siteMatches(pattern: string, host: string): boolean {
  const p = pattern.trim().toLowerCase().replace(/^www\./, '')
  const h = host.replace(/^www\./, '')
  const base = p.startsWith('*.') ? p.slice(2) : p
  return h === base || h.endsWith(`.${base}`)
}

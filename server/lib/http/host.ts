const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i

/** The hostname of a Host header, without its port. */
export function hostnameOf(host: string): string {
  const h = host.trim().toLowerCase()
  return h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.replace(/:\d+$/, '')
}

/** A page on another site that rebinds its DNS name to 127.0.0.1 still sends its own name as Host. */
export function hostAllowed(host: string | undefined, allowed: string[]): boolean {
  if (!host) return false
  const name = hostnameOf(host)
  return LOOPBACK.test(name) || allowed.includes(name)
}

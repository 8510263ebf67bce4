import { hostAllowed } from './host'

/**
 * Whether a request's Origin may reach an endpoint no web page should call (/mcp): none at all (a program), or a
 * page served from this machine (an MCP inspector on loopback) or a host the person allowed. A page elsewhere
 * cannot hold the token, but it could send a token a person pasted somewhere; it gets nothing from /mcp.
 */
export function originAllowed(origin: string | undefined, allowedHosts: string[]): boolean {
  if (origin === undefined) return true
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && hostAllowed(url.host, allowedHosts)
}

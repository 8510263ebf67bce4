/** The reference's groups of routes (OpenAPI tags), in the order it shows them, each with the paths it holds. */
export const ROUTE_GROUPS = [
  { name: 'server', description: 'Whether the server is up, what it is, this reference, and the extensions that called in.' },
  { name: 'agent', prefix: '/api/agent', description: 'Tasks: start one, let the extension drive it step by step, and answer what it waits for.' },
  { name: 'audit', prefix: '/api/audit', description: 'The hash-chained audit of each task, its screenshots, and its signed export.' },
  { name: 'skills', prefix: '/api/skills', description: 'The library of SKILL.md procedures: list, search, read, and save a task or a recording as one.' },
  { name: 'writes', prefix: '/api/writes', description: 'The person’s standing rules for writes: what is always allowed, and what is always asked about.' },
  { name: 'tokens', prefix: '/api/tokens', description: 'Agent tokens the owner makes for outside agents: they open /mcp and nothing else.' },
  { name: 'mcp', prefix: '/mcp', description: 'The Model Context Protocol over Streamable HTTP, for outside agents.' },
  { name: 'demo', prefix: '/demo', description: 'The demo page’s own site, so it has a real request for Tandem to hold.' },
] as const

/** The group a path belongs to: the first whose prefix it starts with, else `server`. */
export function groupOf(path: string): string {
  const found = ROUTE_GROUPS.find((g) => 'prefix' in g && (path === g.prefix || path.startsWith(`${g.prefix}/`)))
  return found?.name ?? 'server'
}

import type { PrincipalKind } from '#protocol'

/** One route and the principals it accepts; `:name` stands for one path segment. */
export interface RouteAccess {
  method: 'GET' | 'POST' | 'DELETE'
  path: string
  accepts: readonly PrincipalKind[]
  /** What the route is for, in the words of docs/security.md's table. */
  what: string
}

const OWNER = ['owner'] as const
const ANYONE = ['anyone'] as const
const MCP = ['owner', 'agent'] as const

/**
 * Every route the server answers and who may call it: the one place the guard (middleware/0.guard.ts) reads, and a
 * test holds every route file to. An agent's token opens /mcp and nothing else: the agent API's confirm, answer,
 * next and report are the person's and their extension's alone, whatever header a caller sends.
 */
export const ROUTE_ACCESS: readonly RouteAccess[] = [
  { method: 'GET', path: '/api/health', accepts: ANYONE, what: 'is the server up' },
  { method: 'POST', path: '/demo/messages', accepts: ANYONE, what: 'the demo page’s contact form (nothing is kept)' },
  { method: 'GET', path: '/api/info', accepts: OWNER, what: 'server name, version, LLM configured' },
  { method: 'POST', path: '/api/agent/start', accepts: OWNER, what: 'start a task' },
  { method: 'POST', path: '/api/agent/next', accepts: OWNER, what: 'the extension takes its next action (secrets filled in)' },
  { method: 'POST', path: '/api/agent/report', accepts: OWNER, what: 'the extension reports what an action did' },
  { method: 'POST', path: '/api/agent/confirm', accepts: OWNER, what: 'approve or reject a risky step' },
  { method: 'POST', path: '/api/agent/answer', accepts: OWNER, what: 'answer a question' },
  { method: 'POST', path: '/api/agent/plan', accepts: OWNER, what: 'approve, edit or refuse a plan' },
  { method: 'POST', path: '/api/agent/pause', accepts: OWNER, what: 'take over' },
  { method: 'POST', path: '/api/agent/resume', accepts: OWNER, what: 'hand control back' },
  { method: 'POST', path: '/api/agent/cancel', accepts: OWNER, what: 'cancel a task' },
  { method: 'GET', path: '/api/agent/status', accepts: OWNER, what: 'a task, its steps and what it waits for' },
  { method: 'GET', path: '/api/agent/tasks', accepts: OWNER, what: 'every task' },
  { method: 'GET', path: '/api/audit/key', accepts: OWNER, what: 'the public key that signs the audit' },
  { method: 'GET', path: '/api/audit/:taskId', accepts: OWNER, what: 'a task’s audit events' },
  { method: 'GET', path: '/api/audit/:taskId/export', accepts: OWNER, what: 'a task’s audit as a signed zip' },
  { method: 'GET', path: '/api/audit/:taskId/artifacts/:name', accepts: OWNER, what: 'one screenshot' },
  { method: 'GET', path: '/api/clients', accepts: OWNER, what: 'the extensions that called in' },
  { method: 'GET', path: '/api/skills', accepts: OWNER, what: 'every skill' },
  { method: 'POST', path: '/api/skills', accepts: OWNER, what: 'save a task as a skill' },
  { method: 'POST', path: '/api/skills/recorded', accepts: OWNER, what: 'save a recording as a skill' },
  { method: 'GET', path: '/api/skills/search', accepts: OWNER, what: 'search skills' },
  { method: 'GET', path: '/api/skills/:slug', accepts: OWNER, what: 'one skill' },
  { method: 'GET', path: '/api/writes/allowed', accepts: OWNER, what: 'the writes always allowed' },
  { method: 'POST', path: '/api/writes/forget', accepts: OWNER, what: 'stop always allowing a write' },
  { method: 'GET', path: '/api/writes/ask-always', accepts: OWNER, what: 'the harmless writes always asked about' },
  { method: 'POST', path: '/api/writes/ask-always', accepts: OWNER, what: 'always ask about a harmless write on a site' },
  { method: 'POST', path: '/api/writes/ask-always/forget', accepts: OWNER, what: 'stop always asking about a harmless write' },
  { method: 'GET', path: '/api/tokens', accepts: OWNER, what: 'agent tokens (never the tokens themselves)' },
  { method: 'POST', path: '/api/tokens', accepts: OWNER, what: 'make an agent token (shown once)' },
  { method: 'DELETE', path: '/api/tokens/:id', accepts: OWNER, what: 'revoke an agent token' },
  { method: 'POST', path: '/mcp', accepts: MCP, what: 'MCP (Streamable HTTP): an agent’s own tasks only' },
  { method: 'GET', path: '/mcp', accepts: MCP, what: 'MCP (Streamable HTTP)' },
  { method: 'DELETE', path: '/mcp', accepts: MCP, what: 'MCP: end a session' },
]

const matches = (pattern: string, path: string) => {
  const want = pattern.split('/')
  const got = path.split('/')
  return want.length === got.length && want.every((part, i) => part.startsWith(':') ? got[i] !== '' : part === got[i])
}

/**
 * Who may call `method path` (its query ignored). A literal route wins over one with a parameter
 * (`/api/audit/key` over `/api/audit/:taskId`); anything not listed is the owner's alone, so a route added without
 * its line here is never opened to an agent by mistake.
 */
export function accessOf(method: string, path: string): readonly PrincipalKind[] {
  // Matched as sent: a path the router would read otherwise ("/api/health/", "/mcp/") is the owner's alone.
  const bare = path.split('?')[0] ?? ''
  const verb = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase()
  const listed = ROUTE_ACCESS.filter((r) => r.method === verb && matches(r.path, bare))
  const literal = listed.find((r) => !r.path.includes(':'))
  return (literal ?? listed[0])?.accepts ?? OWNER
}

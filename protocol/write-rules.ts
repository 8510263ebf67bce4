import type { RequestClassification, RequestFacts, RequestKind } from './held-request'

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

function kindOf(facts: RequestFacts): RequestKind {
  switch (facts.resourceType) {
    case 'Document':
      return READ_METHODS.has(facts.method.toUpperCase()) ? 'navigation' : 'form'
    case 'Ping':
      return 'beacon'
    case 'WebSocket':
      return 'websocket'
    case 'XHR':
    case 'Fetch':
      return 'fetch'
    default:
      return 'other'
  }
}

/** Whether a request from a task's tab can change something on a server, and what it carries. */
export function classifyRequest(facts: RequestFacts): RequestClassification {
  const method = facts.method.toUpperCase()
  const url = URL.canParse(facts.url) ? new URL(facts.url) : null
  const request = {
    method,
    url: url ? `${url.origin}${url.pathname}` : facts.url.slice(0, 2000),
    origin: url?.origin ?? '',
    path: url?.pathname ?? '',
    kind: kindOf(facts),
    fields: [],
  }
  if (READ_METHODS.has(method) && facts.resourceType !== 'WebSocket') return { verdict: 'pass', reason: 'method', request }
  return { verdict: 'hold', reason: 'method', request }
}

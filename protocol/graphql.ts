import { isRecord, type BodyEntry, type ParsedBody } from './request-body'
import { pathWords, wordsOf } from './request-url'

/**
 * The GraphQL operations a request runs, read from its body (or, for GET, its query string). A read sent by POST
 * is only safe to let go when the operation says it is a query; a persisted query names itself and no more.
 */

export type GraphqlType = 'query' | 'mutation' | 'subscription'

export interface GraphqlCall {
  /** Absent for a persisted query: the body carries a name or hash, not the operation. */
  type?: GraphqlType
  name?: string
  variables?: unknown
}

type Operation = { type: GraphqlType; name?: string }

const NAME = /^[_A-Za-z][_0-9A-Za-z]*/
// A selection set opens with a field or a spread: '{"status": "old"}' is a JSON filter, not a query.
const SELECTION = /^\{[\s,]*(?:#[^\n]*\n[\s,]*)*(?:[_A-Za-z]|\.\.\.)/

/**
 * The operations of a GraphQL document in order, or null when the text is not one. A small scanner, not a parser:
 * it skips fragments, strings, comments and bracketed blocks, and reads each operation's keyword and name.
 */
export function parseOperations(doc: string): Operation[] | null {
  const ops: Operation[] = []
  const n = doc.length
  let i = 0
  const skipIgnored = () => {
    while (i < n) {
      if (doc[i] === '#') while (i < n && doc[i] !== '\n') i++
      else if (/[\s,\uFEFF]/.test(doc[i]!)) i++
      else break
    }
  }
  const word = () => {
    const m = NAME.exec(doc.slice(i, i + 256))
    if (m) i += m[0].length
    return m?.[0] ?? ''
  }
  const skipString = () => {
    if (doc.startsWith('"""', i)) {
      let end = doc.indexOf('"""', i + 3)
      while (end > 0 && doc[end - 1] === '\\') end = doc.indexOf('"""', end + 3)
      i = end < 0 ? n : end + 3
      return
    }
    i++
    while (i < n && doc[i] !== '"' && doc[i] !== '\n') i += doc[i] === '\\' ? 2 : 1
    i++
  }
  // From an opening bracket to its match; false when the document ends first.
  const skipBlock = (): boolean => {
    let depth = 0
    while (i < n) {
      const c = doc[i]
      if (c === '"') {
        skipString()
        continue
      }
      if (c === '#') {
        while (i < n && doc[i] !== '\n') i++
        continue
      }
      if (c === '{' || c === '(') depth++
      else if (c === '}' || c === ')') {
        depth--
        if (depth <= 0) {
          i++
          return depth === 0
        }
      }
      i++
    }
    return false
  }
  const skipToSelection = (): boolean => {
    while (i < n && doc[i] !== '{') {
      if (doc[i] === '(') {
        if (!skipBlock()) return false
      } else i++
    }
    return i < n && SELECTION.test(doc.slice(i, i + 512)) && skipBlock()
  }
  for (;;) {
    skipIgnored()
    if (i >= n) break
    if (doc[i] === '{') {
      if (!SELECTION.test(doc.slice(i, i + 512)) || !skipBlock()) return null
      ops.push({ type: 'query' })
      continue
    }
    const keyword = word()
    if (keyword === 'query' || keyword === 'mutation' || keyword === 'subscription') {
      skipIgnored()
      const name = word() || undefined
      if (!skipToSelection()) return null
      ops.push({ type: keyword, ...(name ? { name } : {}) })
    } else if (keyword === 'fragment') {
      if (!skipToSelection()) return null
    } else return null
  }
  return ops.length ? ops : null
}

/** The operation a server runs: the one named, else the only one; when unsure, a mutation if there is one. */
function pick(ops: Operation[], name: string | undefined): Operation {
  const named = name ? ops.find((op) => op.name === name) : ops.length === 1 ? ops[0] : undefined
  return named ?? ops.find((op) => op.type === 'mutation') ?? ops[0]!
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined)
const parsedVariables = (value: unknown) => {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value) as unknown
  } catch {
    return undefined
  }
}
const PERSISTED_IDS = ['doc_id', 'docId', 'queryId', 'documentId', 'id', 'hash']

/** One call from a JSON object or form ({query, operationName, variables, extensions}), or null if not GraphQL. */
function callOf(body: Record<string, unknown>, graphqlPath: boolean, pathName: string | undefined): GraphqlCall | null {
  // Relay apps (Facebook's among them) name the operation fb_api_req_friendly_name beside a doc_id.
  const name = text(body.operationName) ?? text(body.fb_api_req_friendly_name)
  const variables = parsedVariables(body.variables)
  const query = text(body.query)
  if (query !== undefined) {
    const ops = parseOperations(query)
    if (!ops) return null
    const op = pick(ops, name)
    return { type: op.type, name: op.name ?? name, variables }
  }
  const persisted =
    (isRecord(body.extensions) && 'persistedQuery' in body.extensions) ||
    (name !== undefined && ('variables' in body || 'extensions' in body)) ||
    (graphqlPath && PERSISTED_IDS.some((key) => key in body))
  return persisted ? { name: name ?? pathName, variables } : null
}

/** Whether a path names a GraphQL endpoint (/graphql, /api/graphql/, /gql). */
export function isGraphqlPath(url: URL | null): boolean {
  return !!url && /\b(?:graphql|gql)\b/.test(pathWords(url.pathname))
}

/**
 * The GraphQL calls a request makes, or null when it is not GraphQL. A batch (a JSON array) is GraphQL only when
 * every item is. `url` lets a path like /graphql/<hash>/CreateTweet name a persisted operation.
 */
export function graphqlCalls(body: ParsedBody, url: URL | null, query?: readonly BodyEntry[]): GraphqlCall[] | null {
  const graphqlPath = isGraphqlPath(url)
  const last = url?.pathname.split('/').filter(Boolean).at(-1)
  const pathName = graphqlPath && last && /^[_A-Za-z][_0-9A-Za-z]*$/.test(last) && !/^(?:graphql|gql)$/i.test(last) ? last : undefined
  const fromEntries = (entries: readonly BodyEntry[]) => callOf(Object.fromEntries(entries), graphqlPath, pathName)
  switch (body.type) {
    case 'graphql': {
      const ops = parseOperations(body.text)
      return ops ? [pick(ops, undefined)] : null
    }
    case 'json': {
      const items = Array.isArray(body.value) ? body.value : [body.value]
      if (!items.length || !items.every(isRecord)) return null
      const calls = items.map((item) => callOf(item as Record<string, unknown>, graphqlPath, pathName))
      return calls.every((call): call is GraphqlCall => call !== null) ? calls : null
    }
    case 'form': {
      const call = graphqlPath ? fromEntries(body.entries) : null
      return call ? [call] : null
    }
    default: {
      // GET /graphql?query=…: servers refuse mutations over GET, but some do not. `query` is only given for
      // a read, where the query string is all a request says.
      const call = query && (graphqlPath || query.some(([name]) => name === 'query')) ? fromEntries(query) : null
      return call ? [call] : null
    }
  }
}

/** Whether a persisted operation's name says it reads: Relay's "…Query", or a read verb first ("GetViewer"). */
export function isReadName(name: string | undefined, verbs: ReadonlySet<string>): boolean {
  if (!name) return false
  if (/Mutation$/.test(name)) return false
  if (/Query$|Subscription$/.test(name)) return true
  return verbs.has(wordsOf(name).split(' ')[0] ?? '')
}

/** The call a request is judged by: the first write in a batch, else its first call. */
export function decisiveCall(calls: readonly GraphqlCall[], verbs: ReadonlySet<string>): GraphqlCall {
  return calls.find((call) => call.type === 'mutation' || (call.type === undefined && !isReadName(call.name, verbs))) ?? calls[0]!
}

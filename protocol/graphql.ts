import { isRecord, type BodyEntry, type ParsedBody } from './request-body'
import { pathWords, wordsOf } from './request-url'
import { findKeyword } from './risk-rules'

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

/**
 * One call from a JSON object or form ({query, operationName, variables, extensions}), or null if not GraphQL.
 * A `query` is taken for GraphQL at a GraphQL endpoint or beside the keys GraphQL clients send with it: elsewhere
 * a "query" is as likely a filter ('{ status: "old" }') for a bulk update.
 */
function callOf(body: Record<string, unknown>, endpoint: boolean, pathName: string | undefined): GraphqlCall | null {
  // Relay apps (Facebook's among them) name the operation fb_api_req_friendly_name beside a doc_id.
  const name = text(body.operationName) ?? text(body.fb_api_req_friendly_name)
  const variables = parsedVariables(body.variables)
  const query = text(body.query)
  const clientKeys = 'operationName' in body || 'variables' in body || 'extensions' in body
  if (query !== undefined) {
    const ops = endpoint || clientKeys ? parseOperations(query) : null
    if (!ops) return null
    const op = pick(ops, name)
    return { type: op.type, name: op.name ?? name, variables }
  }
  const persisted =
    (isRecord(body.extensions) && 'persistedQuery' in body.extensions) ||
    (name !== undefined && clientKeys) ||
    (endpoint && PERSISTED_IDS.some((key) => key in body))
  return persisted ? { name: name ?? pathName, variables } : null
}

/** Whether a URL names a GraphQL endpoint by its path (/graphql, /api/graphql/) or host (gql.example.com). */
export function isGraphqlEndpoint(url: URL | null): boolean {
  return !!url && (/\b(?:graphql|gql)\b/.test(pathWords(url.pathname)) || /(?:^|\.)(?:graphql|gql)\./i.test(url.hostname))
}

/**
 * The GraphQL calls a request makes, or null when it is not GraphQL. A batch (a JSON array) is GraphQL only when
 * every item is. `url` lets a path like /graphql/<hash>/CreateTweet name a persisted operation.
 */
export function graphqlCalls(body: ParsedBody, url: URL | null, query?: readonly BodyEntry[]): GraphqlCall[] | null {
  const graphqlPath = isGraphqlEndpoint(url)
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

/** The words an operation's name is judged by (the compiled write rules have them). */
export interface OperationWords {
  readVerbs: ReadonlySet<string>
  /** Words of acts that cannot be taken back (delete, pay, send, …). */
  urlWords: readonly string[]
  /** Every word that makes a write, the harmless ones too (save, post, update, …). */
  writeWords: readonly string[]
}

/**
 * Whether a persisted operation's name says it reads: a read verb first ("GetViewer", "ListRepos") with no
 * irreversible act after it ("GetAndDeleteDraft"), or Relay's "…Query" with no write word at all ("SaveSearchQuery"
 * saves). A name is the site's own word for what the call does; without one, it is a write.
 */
export function isReadName(name: string | undefined, words: OperationWords): boolean {
  if (!name || /Mutation$/.test(name)) return false
  const spoken = wordsOf(name)
  if (/Query$/.test(name)) return !findKeyword(spoken, words.writeWords)
  return words.readVerbs.has(spoken.split(' ')[0] ?? '') && !findKeyword(spoken, words.urlWords)
}

/** The call a request is judged by: the first write in a batch, else its first call. */
export function decisiveCall(calls: readonly GraphqlCall[], words: OperationWords): GraphqlCall {
  return calls.find((call) => call.type === 'mutation' || (call.type === undefined && !isReadName(call.name, words))) ?? calls[0]!
}

import { readdirSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import fc from 'fast-check'
import { TaskStatus } from '#protocol'

/** One route as its file under server/api declares it: `[param]` segments and an `index` that names the folder. */
export interface RouteFile {
  file: string
  method: string
  segments: (string | { param: string })[]
}

/** Every route of the server, read from the files so a new route is fuzzed without anyone listing it. */
export function routesFromFiles(dir = resolve('server/api')): RouteFile[] {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))
  return files.sort().map((file) => {
    const parts = relative(dir, join(dir, file)).split(/[\\/]/)
    // The method is the last word before .ts; a name may hold dots of its own (openapi.json.get.ts).
    const [, name, method] = /^(.*)\.(\w+)\.ts$/.exec(parts.pop()!)!
    if (name !== 'index') parts.push(name!)
    const segments = parts.map((p) => (/^\[(\w+)\]$/.test(p) ? { param: p.slice(1, -1) } : p))
    return { file, method: method!.toUpperCase(), segments: ['api', ...segments] }
  })
}

/** Ids the fuzzer can aim at: real tasks and actions made before the run, so valid requests reach the engine. */
export interface Known {
  taskIds: string[]
  actionIds: string[]
  artifactNames: string[]
  clientId: string
}

export interface FuzzRequest {
  route: RouteFile
  method: string
  path: string
  /** The owner's token, none, a wrong one, or an agent's token (which opens /mcp only). */
  auth: 'valid' | 'none' | 'wrong' | 'agent'
  /** A Host header to send instead of the server's own; a foreign one must be refused (DNS rebinding). */
  host?: string
  headers: Record<string, string>
  /** Undefined sends no body. */
  raw?: string
  kind: string
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']
// Sent as they are (node:http does not normalise paths the way fetch does), so `..` reaches the server.
const ODD = ['..', '.', '../..', '..\\..', './', '%2F', '//', ';', '%3B', ':', '*', '%2e%2e', '..%2F..%2Fetc%2Fpasswd', '%2e%2e%2f%2e%2e%2ftoken', '%00', 'x.png%00.png', '%', '%zz', '%E4%B8%AD', 'a%2Fb', '~', 'CON', '%20', '__proto__', 'constructor', 'events.jsonl', '....%2F%2Ftoken', 'x'.repeat(200)]
const ascii = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`))
const idLike = fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/)

function scalar(known: Known): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(...known.taskIds, ...known.actionIds, known.clientId),
    idLike,
    fc.string({ maxLength: 30 }),
    fc.constantFrom('', ' ', '\u0000', '提交', '../../etc/passwd', 'javascript:alert(1)', 'http://127.0.0.1:9/', 'a'.repeat(5000)),
    // Numbers stay out of 1..20000 so a `waitMs` never holds a long-poll open and slows the run.
    fc.oneof(fc.integer({ min: -1e9, max: 0 }), fc.integer({ min: 20_001 }), fc.double(), fc.constantFrom(1e308, -0, 2 ** 53 + 1)),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(...TaskStatus.options, 'llm', 'script', 'done', 'failed'),
  )
}

function value(known: Known): fc.Arbitrary<unknown> {
  const s = scalar(known)
  return fc.oneof({ weight: 6, arbitrary: s }, fc.array(s, { maxLength: 3 }), fc.dictionary(fc.constantFrom('type', 'url', 'status', 'index', 'selector', 'text', 'errors'), s, { maxKeys: 3 }))
}

const FIELDS = ['goal', 'startUrl', 'clientId', 'skill', 'script', 'mode', 'taskId', 'actionId', 'observation', 'waitMs', 'approved', 'reason', 'answer', 'slug', 'name', 'description', 'overwrite']

/** Bodies that pass validation, so the engine itself is driven through its states by the fuzzer. */
function validBody(route: RouteFile, known: Known): fc.Arbitrary<unknown> | undefined {
  const taskId = fc.constantFrom(...known.taskIds)
  const actionId = fc.constantFrom(...known.actionIds)
  const reason = fc.option(fc.string({ maxLength: 40 }), { nil: undefined })
  const step = fc.oneof(
    fc.constant({ type: 'observe' }),
    fc.constant({ type: 'navigate', url: 'http://127.0.0.1:9/' }),
    fc.record({ type: fc.constant('click'), selector: fc.constantFrom('button', '#buy', 'a') }),
    fc.record({ type: fc.constant('type'), text: fc.string({ maxLength: 20 }), selector: fc.constant('input') }),
  )
  const observation = fc.record({
    status: fc.constantFrom('done', 'failed'),
    url: fc.constantFrom('http://127.0.0.1:9/', 'about:blank', ''),
    title: fc.string({ maxLength: 20 }),
    elementTree: fc.constantFrom('', '[0]<button>Place order</button>'),
    visibleTextSnippet: fc.string({ maxLength: 20 }),
    errors: fc.constantFrom([], [{ code: 'TIMEOUT', message: 'slow' }]),
    timing: fc.constant({ totalMs: 1 }),
  })
  const byName: Record<string, fc.Arbitrary<unknown>> = {
    start: fc.record({ goal: fc.string({ minLength: 1, maxLength: 40 }).filter((g) => g.trim().length > 0), clientId: fc.option(fc.constant(known.clientId), { nil: undefined }), script: fc.option(fc.array(step, { minLength: 1, maxLength: 3 }), { nil: undefined }) }),
    next: fc.record({ clientId: fc.constant(known.clientId), taskId: fc.option(taskId, { nil: undefined }), waitMs: fc.constant(0) }),
    report: fc.record({ taskId, actionId, observation }),
    confirm: fc.record({ taskId, actionId, approved: fc.boolean(), reason }),
    answer: fc.record({ taskId, answer: fc.constantFrom('blue', '蓝色', 'yes') }),
    pause: fc.record({ taskId, reason }),
    resume: fc.record({ taskId, reason }),
    cancel: fc.record({ taskId, reason }),
    skills: fc.record({ taskId, name: fc.option(fc.constantFrom('Fuzzed skill', '模糊技能'), { nil: undefined }), overwrite: fc.option(fc.boolean(), { nil: undefined }) }),
  }
  const last = route.segments.at(-1)
  return typeof last === 'string' ? byName[last] : undefined
}

function body(route: RouteFile, known: Known, maxBodyBytes: number): fc.Arbitrary<{ kind: string; raw?: string }> {
  const json = (kind: string) => (v: unknown) => ({ kind, raw: JSON.stringify(v) })
  const valid = validBody(route, known)
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({ kind: 'none' }) },
    ...(valid ? [{ weight: 6, arbitrary: valid.map(json('valid')) }] : []),
    // Valid bodies with one field bent: a wrong type or an unknown key.
    ...(valid ? [{ weight: 4, arbitrary: fc.tuple(valid, fc.constantFrom(...FIELDS, 'surprise', 'constructor'), value(known)).map(([v, k, x]) => ({ kind: 'bent', raw: JSON.stringify({ ...(v as object), [k]: x }) })) }] : []),
    { weight: 5, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })), value(known), { maxKeys: 6 }).map(json('fields')) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(json('json')) },
    { weight: 2, arbitrary: fc.string({ maxLength: 60 }).map((raw) => ({ kind: 'text', raw })) },
    { weight: 1, arbitrary: fc.constantFrom('{"goal": "x",', '{', 'null', '[]', 'true', '"x"', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '{"taskId":{"$ne":1}}', '\uFEFF{}', '{"a":1}{"b":2}', '1e999999', '{"goal":"\uD800"}').map((raw) => ({ kind: 'junk', raw })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'huge', raw: JSON.stringify({ goal: 'x'.repeat(maxBodyBytes + 1) }) }) },
  )
}

function pathOf(route: RouteFile, known: Known): fc.Arbitrary<string> {
  const param = (name: string) =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...(name === 'name' ? known.artifactNames : known.taskIds)) },
      { weight: 3, arbitrary: fc.constantFrom(...ODD) },
      { weight: 2, arbitrary: fc.string({ maxLength: 20 }).map(encodeURIComponent) },
      { weight: 2, arbitrary: idLike },
      { weight: 1, arbitrary: fc.constantFrom('skill-one', 'no-such-skill', 'A_B', 'zh-技能') },
    )
  const segments = fc.tuple(...route.segments.map((s) => (typeof s === 'string' ? fc.constant(s) : param(s.param))))
  const key = fc.oneof(fc.constantFrom('taskId', 'status', 'limit', 'q', 'site', '__proto__', 'taskId[]', 'constructor'), fc.string({ maxLength: 6 }))
  const qvalue = fc.oneof(fc.constantFrom(...known.taskIds, ...TaskStatus.options, '0', '1', '50', '501', '-1', '1.5', 'NaN', '', '%', '购物'), fc.string({ maxLength: 12 }))
  const query = fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    { weight: 4, arbitrary: fc.array(fc.tuple(key, qvalue), { maxLength: 4 }).map((pairs) => (pairs.length ? '?' + new URLSearchParams(pairs).toString() : '')) },
    { weight: 1, arbitrary: fc.constantFrom('?%', '?&&=&', '?taskId=%zz', '?a[b]=1', '?__proto__[x]=1', '?taskId=1&taskId=2', '?q=' + 'x'.repeat(600)) },
  )
  // Only what HTTP cannot carry as it is (spaces, controls, non-ASCII) is escaped; everything odd but sendable goes raw.
  return fc.tuple(segments, query).map(([segs, q]) => ('/' + segs.join('/') + q).replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c).replace(/^$/, '%3F')))
}

/** A request of any shape to one of the routes: mostly its own method and a valid token, sometimes not. */
export function fuzzRequest(routes: RouteFile[], known: Known, maxBodyBytes: number): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...routes).chain((route) =>
    fc
      .record({
        method: fc.oneof({ weight: 8, arbitrary: fc.constant(route.method) }, { weight: 2, arbitrary: fc.constantFrom(...METHODS) }),
        path: pathOf(route, known),
        auth: fc.oneof({ weight: 18, arbitrary: fc.constant('valid' as const) }, fc.constantFrom('none' as const, 'wrong' as const, 'agent' as const)),
        body: body(route, known, maxBodyBytes),
        contentType: fc.option(fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', ''), { nil: undefined }),
        traceId: fc.option(ascii(200), { nil: undefined }),
        client: fc.option(ascii(40), { nil: undefined }),
        version: fc.option(ascii(40), { nil: undefined }),
        host: fc.oneof({ weight: 18, arbitrary: fc.constant(undefined) }, fc.constantFrom('localhost', 'LOCALHOST:1', '127.0.0.1', '127.1.2.3:80', '[::1]:3000', 'evil.example', 'localhost.evil.example', '127.0.0.1.nip.io', '[::1', 'a b', '0x7f000001', '::1')),
      })
      .map(({ method, path, auth, body: b, contentType, traceId, client, version, host }) => {
        const headers: Record<string, string> = {}
        if (contentType !== undefined) headers['content-type'] = contentType
        if (traceId !== undefined) headers['x-trace-id'] = traceId
        if (client !== undefined) headers['x-tandem-client'] = client
        if (version !== undefined) headers['x-tandem-version'] = version
        const raw = method === 'HEAD' ? undefined : b.raw
        return { route, method, path, auth, headers, raw, kind: raw === undefined ? 'none' : b.kind, ...(host === undefined ? {} : { host }) }
      }),
  )
}

import type { AuditView, ClientView, ConfirmBody, SaveSkillBody, SaveSkillData, Skill, SkillSearchResult, SkillSummary, StatusView, TaskView } from '#protocol'
import { CLIENT_HEADERS } from '#protocol'
import { DeadlineExceeded, readBytes, startDeadline, type Deadline } from '../deadline'

// How long each of the console's calls may take before it says the server is not answering (the body read
// included). The console is a page: no worker limit applies, but a person should not watch "Loading…" for ever.

/** The task list (up to 500 tasks), a task's status, skill search, the clients, saving a skill: small reads and writes. */
export const CALL_MS = 10_000
/** A task's whole audit log, which grows with every step it took. */
export const AUDIT_MS = 20_000
/** Bytes (a screenshot, the audit zip, which the server streams while it builds it): first the headers… */
export const BYTES_FIRST_MS = 10_000
/** …then the longest pause between two chunks: a big export takes as long as it needs while bytes arrive. */
export const BYTES_IDLE_MS = 10_000

/** A failed call, with what the console tells the person. */
export class ApiError extends Error {
  constructor(
    /** `timeout`: the server took the request and sent no (whole) answer within the call's deadline. */
    readonly kind: 'network' | 'timeout' | 'unauthorized' | 'not-found' | 'server',
    readonly status: number,
    readonly code: string,
    message: string,
    /** The envelope's details, when the server gave any (the slug that is taken, say). */
    readonly details?: unknown,
  ) {
    super(message)
  }
}

export interface ApiDeps {
  token(): string | null
  fetch: typeof fetch
  /** The server's origin; empty for the one the console was loaded from. */
  base?: string
}

async function failure(res: Response, deadline: Deadline): Promise<ApiError> {
  let code = `HTTP_${res.status}`
  let message = res.statusText
  let details: unknown
  try {
    const body = (await deadline.within(res.json())) as { error?: { code?: string; message?: string; details?: unknown } }
    code = body.error?.code ?? code
    message = body.error?.message ?? message
    details = body.error?.details
  } catch {
    // Not our envelope (a proxy, a crash page), or its body never came: the status says enough.
  }
  const kind = res.status === 401 ? 'unauthorized' : res.status === 404 ? 'not-found' : 'server'
  return new ApiError(kind, res.status, code, message, details)
}

const notAnswering = (ms: number) => new ApiError('timeout', 0, 'NOT_ANSWERING', `No answer within ${Math.round(ms / 1000)} s.`)

/** The console's one way to the server: every call carries the token and has a deadline, every failure becomes an ApiError. */
export function createApi({ token, fetch: doFetch, base = '' }: ApiDeps) {
  /** Runs one call under a deadline of `ms`; a deadline that passes, at any point, is NOT_ANSWERING. */
  async function within<T>(ms: number, work: (deadline: Deadline) => Promise<T>): Promise<T> {
    const deadline = startDeadline(ms)
    try {
      return await work(deadline)
    } catch (error) {
      throw deadline.expired ? notAnswering((deadline.signal.reason as DeadlineExceeded).ms) : error
    } finally {
      deadline.clear()
    }
  }
  async function call(deadline: Deadline, method: string, path: string, body?: unknown): Promise<Response> {
    // The console names itself, so what the person does here is audited as done in the console.
    const headers: Record<string, string> = { authorization: `Bearer ${token() ?? ''}`, [CLIENT_HEADERS.surface]: 'console' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    let res: Response
    try {
      const init = { method, headers, signal: deadline.signal, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }
      res = await deadline.within(doFetch(base + path, init))
    } catch (error) {
      if (deadline.expired) throw error
      throw new ApiError('network', 0, 'NETWORK', error instanceof Error ? error.message : String(error))
    }
    if (!res.ok) throw await failure(res, deadline)
    return res
  }
  const data = <T>(method: string, path: string, body?: unknown, ms = CALL_MS): Promise<T> =>
    within(ms, async (deadline) => {
      const envelope = (await deadline.within((await call(deadline, method, path, body)).json())) as { ok: boolean; data: T }
      return envelope.data
    })
  const q = (params: Record<string, string | number | undefined>) =>
    new URLSearchParams(Object.entries(params).filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== '').map(([k, v]) => [k, String(v)])).toString()

  return {
    tasks: () => data<TaskView[]>('GET', `/api/agent/tasks?${q({ limit: 500 })}`),
    status: (taskId: string) => data<StatusView>('GET', `/api/agent/status?${q({ taskId })}`),
    audit: (taskId: string) => data<AuditView>('GET', `/api/audit/${encodeURIComponent(taskId)}`, undefined, AUDIT_MS),
    searchSkills: (query: string, site?: string) => data<SkillSearchResult[]>('GET', `/api/skills/search?${q({ q: query, site, limit: 30 })}`),
    clients: () => data<ClientView[]>('GET', '/api/clients'),
    /** Every skill, shipped and the person's own, for the Skills page before any search. */
    skills: () => data<SkillSummary[]>('GET', '/api/skills'),
    skill: (slug: string) => data<Skill>('GET', `/api/skills/${encodeURIComponent(slug)}`),
    saveSkill: (body: SaveSkillBody) => data<SaveSkillData>('POST', '/api/skills', body),
    confirm: (body: ConfirmBody) => data<{ status: string }>('POST', '/api/agent/confirm', body),
    /** Bytes the page cannot fetch by URL, since an <img> or a link cannot send the token. */
    blob: (path: string) => within(BYTES_FIRST_MS, async (deadline) => readBytes(await call(deadline, 'GET', path), deadline, BYTES_IDLE_MS)),
    artifactPath: (taskId: string, name: string) => `/api/audit/${encodeURIComponent(taskId)}/artifacts/${encodeURIComponent(name)}`,
    exportPath: (taskId: string) => `/api/audit/${encodeURIComponent(taskId)}/export`,
  }
}
export type Api = ReturnType<typeof createApi>

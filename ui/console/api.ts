import type { AuditView, ClientView, SaveSkillBody, SaveSkillData, SkillSearchResult, StatusView, TaskView } from '#protocol'

/** A failed call, with what the console tells the person. */
export class ApiError extends Error {
  constructor(
    readonly kind: 'network' | 'unauthorized' | 'not-found' | 'server',
    readonly status: number,
    readonly code: string,
    message: string,
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

async function failure(res: Response): Promise<ApiError> {
  let code = `HTTP_${res.status}`
  let message = res.statusText
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } }
    code = body.error?.code ?? code
    message = body.error?.message ?? message
  } catch {
    // Not our envelope (a proxy, a crash page): the status says enough.
  }
  const kind = res.status === 401 ? 'unauthorized' : res.status === 404 ? 'not-found' : 'server'
  return new ApiError(kind, res.status, code, message)
}

/** The console's one way to the server: every call carries the token, every failure becomes an ApiError. */
export function createApi({ token, fetch: doFetch, base = '' }: ApiDeps) {
  async function call(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${token() ?? ''}` }
    if (body !== undefined) headers['content-type'] = 'application/json'
    let res: Response
    try {
      res = await doFetch(base + path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    } catch (error) {
      throw new ApiError('network', 0, 'NETWORK', error instanceof Error ? error.message : String(error))
    }
    if (!res.ok) throw await failure(res)
    return res
  }
  async function data<T>(method: string, path: string, body?: unknown): Promise<T> {
    const envelope = (await (await call(method, path, body)).json()) as { ok: boolean; data: T }
    return envelope.data
  }
  const q = (params: Record<string, string | number | undefined>) =>
    new URLSearchParams(Object.entries(params).filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== '').map(([k, v]) => [k, String(v)])).toString()

  return {
    tasks: () => data<TaskView[]>('GET', `/api/agent/tasks?${q({ limit: 500 })}`),
    status: (taskId: string) => data<StatusView>('GET', `/api/agent/status?${q({ taskId })}`),
    audit: (taskId: string) => data<AuditView>('GET', `/api/audit/${encodeURIComponent(taskId)}`),
    searchSkills: (query: string, site?: string) => data<SkillSearchResult[]>('GET', `/api/skills/search?${q({ q: query, site, limit: 30 })}`),
    clients: () => data<ClientView[]>('GET', '/api/clients'),
    saveSkill: (body: SaveSkillBody) => data<SaveSkillData>('POST', '/api/skills', body),
    /** Bytes the page cannot fetch by URL, since an <img> or a link cannot send the token. */
    blob: async (path: string) => (await call('GET', path)).blob(),
    artifactPath: (taskId: string, name: string) => `/api/audit/${encodeURIComponent(taskId)}/artifacts/${encodeURIComponent(name)}`,
    exportPath: (taskId: string) => `/api/audit/${encodeURIComponent(taskId)}/export`,
  }
}
export type Api = ReturnType<typeof createApi>

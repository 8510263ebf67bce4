import { z } from 'zod'
import {
  ApiErrorCode,
  CLIENT_HEADERS,
  ErrorEnvelope,
  NextData,
  ReportData,
  SkillSearchResult,
  StartData,
  StatusData,
  StatusView,
  TaskView,
  SaveSkillData,
  okEnvelope,
  type AnswerBody,
  type ConfirmBody,
  type ReportBodyInput,
  type SaveSkillBody,
  type StartBody,
  type TaskCommandBody,
} from '#protocol'
import type { Settings } from '../settings'
import { ServerError } from './errors'

export interface ServerClientDeps {
  settings: () => Promise<Settings>
  clientId: () => Promise<string>
  /** The extension's manifest version, sent with every call. */
  version: string
  fetch?: typeof fetch
}

const Info = z.object({ name: z.string(), version: z.string(), llm: z.object({ configured: z.boolean() }).passthrough() }).passthrough()
export type ServerInfo = z.infer<typeof Info>

/** The Tandem HTTP API as the extension uses it; every failure is a ServerError with a stable code. */
export function createServerClient(deps: ServerClientDeps) {
  const doFetch = deps.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args))

  /** One request carrying the client headers (and the token); no answer at all becomes UNREACHABLE. */
  async function send(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    init: { signal?: AbortSignal; auth?: boolean } = {},
  ): Promise<{ res: Response; serverUrl: string }> {
    const { serverUrl, token } = await deps.settings()
    const headers: Record<string, string> = {
      [CLIENT_HEADERS.clientId]: await deps.clientId(),
      [CLIENT_HEADERS.version]: deps.version,
    }
    if (init.auth !== false) {
      if (!token) throw new ServerError('NOT_CONFIGURED', 'Set the server token in the Tandem side panel.')
      headers.authorization = `Bearer ${token}`
    }
    if (body !== undefined) headers['content-type'] = 'application/json'
    let res: Response
    try {
      res = await doFetch(serverUrl + path, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(init.signal ? { signal: init.signal } : {}),
      })
    } catch (error) {
      if ((error as Error)?.name === 'AbortError') throw error
      throw new ServerError('UNREACHABLE', `The Tandem server at ${serverUrl} is not reachable. Is it running?`)
    }
    return { res, serverUrl }
  }

  /** The server's error envelope as a ServerError, or null when `json` is not one. */
  function refusal(json: unknown, status: number): ServerError | null {
    const failed = ErrorEnvelope.safeParse(json)
    if (!failed.success) return null
    const code = ApiErrorCode.safeParse(failed.data.error.code)
    return new ServerError(code.success ? code.data : 'BAD_RESPONSE', failed.data.error.message, status, failed.data.error.details)
  }

  async function readJson(res: Response, serverUrl: string): Promise<unknown> {
    try {
      return await res.json()
    } catch {
      throw new ServerError('BAD_RESPONSE', `${serverUrl} answered ${res.status} without JSON: is that the Tandem server?`, res.status)
    }
  }

  async function call<T extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    data: T,
    body?: unknown,
    init: { signal?: AbortSignal; auth?: boolean } = {},
  ): Promise<z.output<T>> {
    const { res, serverUrl } = await send(method, path, body, init)
    const json = await readJson(res, serverUrl)
    const refused = refusal(json, res.status)
    if (refused) throw refused
    const ok = okEnvelope(data).safeParse(json)
    if (!ok.success) throw new ServerError('BAD_RESPONSE', `${serverUrl}${path} answered in an unexpected shape.`, res.status)
    return (ok.data as { data: z.output<T> }).data
  }

  /** Bytes (a screenshot, the audit zip): errors still come as the JSON envelope. */
  async function bytes(path: string): Promise<Blob> {
    const { res, serverUrl } = await send('GET', path)
    if (res.ok) return res.blob()
    throw refusal(await readJson(res, serverUrl), res.status) ?? new ServerError('BAD_RESPONSE', `${serverUrl}${path} answered ${res.status}.`, res.status)
  }

  const audit = (taskId: string) => `/api/audit/${encodeURIComponent(taskId)}`

  return {
    health: () => call('GET', '/api/health', z.unknown().optional(), undefined, { auth: false }),
    info: () => call('GET', '/api/info', Info),
    start: async (body: Omit<StartBody, 'clientId'>) => call('POST', '/api/agent/start', StartData, { ...body, clientId: await deps.clientId() }),
    next: async (body: { taskId?: string; waitMs?: number }, signal?: AbortSignal) =>
      call('POST', '/api/agent/next', NextData, { ...body, clientId: await deps.clientId() }, { signal }),
    report: (body: ReportBodyInput) => call('POST', '/api/agent/report', ReportData, body),
    confirm: (body: ConfirmBody) => call('POST', '/api/agent/confirm', StatusData, body),
    answer: (body: AnswerBody) => call('POST', '/api/agent/answer', StatusData, body),
    pause: (body: TaskCommandBody) => call('POST', '/api/agent/pause', StatusData, body),
    resume: (body: TaskCommandBody) => call('POST', '/api/agent/resume', StatusData, body),
    cancel: (body: TaskCommandBody) => call('POST', '/api/agent/cancel', StatusData, body),
    status: (taskId: string) => call('GET', `/api/agent/status?taskId=${encodeURIComponent(taskId)}`, StatusView),
    tasks: (limit = 20) => call('GET', `/api/agent/tasks?limit=${limit}`, z.array(TaskView)),
    searchSkills: (q: string, limit = 8) =>
      call('GET', `/api/skills/search?q=${encodeURIComponent(q)}&limit=${limit}`, z.array(SkillSearchResult)),
    saveSkill: (body: SaveSkillBody) => call('POST', '/api/skills', SaveSkillData, body),
    artifact: (taskId: string, name: string) => bytes(`${audit(taskId)}/artifacts/${encodeURIComponent(name)}`),
    exportAudit: (taskId: string) => bytes(`${audit(taskId)}/export`),
  }
}
export type ServerClient = ReturnType<typeof createServerClient>

import { z } from 'zod'
import {
  AllowedWrite,
  ApiErrorCode,
  AskAlwaysEntry,
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
  type PlanBody,
  type ConfirmBody,
  type ReportBodyInput,
  type SaveRecordingBody,
  type SaveSkillBody,
  type StartBody,
  type TaskCommandBody,
  type WriteAllowRule,
  type AskAlwaysRule,
} from '#protocol'
import type { Settings } from '../settings'
import { DeadlineExceeded, readBytes, startDeadline, type Deadline } from '../../../ui/deadline'
import { BYTES_FIRST_MS, BYTES_IDLE_MS, COMMAND_MS, HEALTH_MS, READ_MS, REPORT_MS, nextDeadlineMs } from './deadlines'
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

interface CallInit {
  /** The caller's own signal: its abort ends the call with the caller's reason, not a ServerError. */
  signal?: AbortSignal
  auth?: boolean
  /** How long the whole call may take, the body read included (see deadlines.ts). */
  deadlineMs: number
}

/**
 * The Tandem HTTP API as the extension uses it; every failure is a ServerError with a stable code, and every call
 * has a deadline: one that passes is NOT_ANSWERING, which callers treat like UNREACHABLE.
 */
export function createServerClient(deps: ServerClientDeps) {
  const doFetch = deps.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args))

  const notAnswering = (serverUrl: string, ms: number) =>
    new ServerError('NOT_ANSWERING', `The Tandem server at ${serverUrl} did not answer within ${Math.round(ms / 1000)} s.`)

  /**
   * What ended a call that threw: the deadline (NOT_ANSWERING), the caller's signal (its own reason, rethrown), a
   * ServerError already decided, or anything else as `otherwise`.
   */
  function failure(error: unknown, deadline: Deadline, serverUrl: string, otherwise: () => ServerError): unknown {
    if (deadline.expired) return notAnswering(serverUrl, (deadline.signal.reason as DeadlineExceeded).ms)
    if (deadline.signal.aborted) return deadline.signal.reason ?? error
    if (error instanceof ServerError) return error
    return otherwise()
  }

  /** One request carrying the client headers (and the token), within `deadline`; no answer at all becomes UNREACHABLE. */
  async function send(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    deadline: Deadline,
    auth = true,
  ): Promise<{ res: Response; serverUrl: string }> {
    const { serverUrl, token } = await deps.settings()
    const headers: Record<string, string> = {
      [CLIENT_HEADERS.clientId]: await deps.clientId(),
      [CLIENT_HEADERS.version]: deps.version,
    }
    if (auth) {
      if (!token) throw new ServerError('NOT_CONFIGURED', 'Set the server token in the Tandem side panel.')
      headers.authorization = `Bearer ${token}`
    }
    if (body !== undefined) headers['content-type'] = 'application/json'
    try {
      const res = await deadline.within(
        doFetch(serverUrl + path, {
          method,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: deadline.signal,
        }),
      )
      return { res, serverUrl }
    } catch (error) {
      throw failure(error, deadline, serverUrl, () => new ServerError('UNREACHABLE', `The Tandem server at ${serverUrl} is not reachable. Is it running?`))
    }
  }

  /** The server's error envelope as a ServerError, or null when `json` is not one. */
  function refusal(json: unknown, status: number): ServerError | null {
    const failed = ErrorEnvelope.safeParse(json)
    if (!failed.success) return null
    const code = ApiErrorCode.safeParse(failed.data.error.code)
    return new ServerError(code.success ? code.data : 'BAD_RESPONSE', failed.data.error.message, status, failed.data.error.details)
  }

  /** The body as JSON, read within the deadline: headers followed by silence is no answer either. */
  async function readJson(res: Response, serverUrl: string, deadline: Deadline): Promise<unknown> {
    try {
      return await deadline.within(res.json())
    } catch (error) {
      throw failure(error, deadline, serverUrl, () => new ServerError('BAD_RESPONSE', `${serverUrl} answered ${res.status} without JSON: is that the Tandem server?`, res.status))
    }
  }

  async function call<T extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    data: T,
    body: unknown,
    init: CallInit,
  ): Promise<z.output<T>> {
    const deadline = startDeadline(init.deadlineMs, init.signal)
    try {
      const { res, serverUrl } = await send(method, path, body, deadline, init.auth !== false)
      const json = await readJson(res, serverUrl, deadline)
      const refused = refusal(json, res.status)
      if (refused) throw refused
      const ok = okEnvelope(data).safeParse(json)
      if (!ok.success) throw new ServerError('BAD_RESPONSE', `${serverUrl}${path} answered in an unexpected shape.`, res.status)
      return (ok.data as { data: z.output<T> }).data
    } finally {
      deadline.clear()
    }
  }

  /**
   * Bytes (a screenshot, the audit zip): the headers within BYTES_FIRST_MS, then no pause longer than BYTES_IDLE_MS
   * between chunks, however long the whole download takes. Errors still come as the JSON envelope.
   */
  async function bytes(path: string): Promise<Blob> {
    const deadline = startDeadline(BYTES_FIRST_MS)
    try {
      const { res, serverUrl } = await send('GET', path, undefined, deadline)
      if (!res.ok) {
        throw refusal(await readJson(res, serverUrl, deadline), res.status) ?? new ServerError('BAD_RESPONSE', `${serverUrl}${path} answered ${res.status}.`, res.status)
      }
      try {
        return await readBytes(res, deadline, BYTES_IDLE_MS)
      } catch (error) {
        throw failure(error, deadline, serverUrl, () => new ServerError('UNREACHABLE', `The download from ${serverUrl}${path} broke off.`))
      }
    } finally {
      deadline.clear()
    }
  }

  const audit = (taskId: string) => `/api/audit/${encodeURIComponent(taskId)}`

  const read = { deadlineMs: READ_MS }
  const command = { deadlineMs: COMMAND_MS }

  return {
    health: () => call('GET', '/api/health', z.unknown().optional(), undefined, { auth: false, deadlineMs: HEALTH_MS }),
    info: () => call('GET', '/api/info', Info, undefined, read),
    start: async (body: Omit<StartBody, 'clientId'>) => call('POST', '/api/agent/start', StartData, { ...body, clientId: await deps.clientId() }, command),
    next: async (body: { taskId?: string; waitMs?: number }, signal?: AbortSignal) =>
      call('POST', '/api/agent/next', NextData, { ...body, clientId: await deps.clientId() }, { signal, deadlineMs: nextDeadlineMs(body.waitMs) }),
    report: (body: ReportBodyInput) => call('POST', '/api/agent/report', ReportData, body, { deadlineMs: REPORT_MS }),
    confirm: (body: ConfirmBody) => call('POST', '/api/agent/confirm', StatusData, body, command),
    answer: (body: AnswerBody) => call('POST', '/api/agent/answer', StatusData, body, command),
    plan: (body: PlanBody) => call('POST', '/api/agent/plan', StatusData, body, command),
    pause: (body: TaskCommandBody) => call('POST', '/api/agent/pause', StatusData, body, command),
    resume: (body: TaskCommandBody) => call('POST', '/api/agent/resume', StatusData, body, command),
    cancel: (body: TaskCommandBody) => call('POST', '/api/agent/cancel', StatusData, body, command),
    status: (taskId: string) => call('GET', `/api/agent/status?taskId=${encodeURIComponent(taskId)}`, StatusView, undefined, read),
    tasks: (limit = 20) => call('GET', `/api/agent/tasks?limit=${limit}`, z.array(TaskView), undefined, read),
    searchSkills: (q: string, limit = 8) =>
      call('GET', `/api/skills/search?q=${encodeURIComponent(q)}&limit=${limit}`, z.array(SkillSearchResult), undefined, read),
    saveSkill: (body: SaveSkillBody) => call('POST', '/api/skills', SaveSkillData, body, command),
    saveRecording: (body: SaveRecordingBody) => call('POST', '/api/skills/recorded', SaveSkillData, body, command),
    allowedWrites: () => call('GET', '/api/writes/allowed', z.array(AllowedWrite), undefined, read),
    forgetWrite: (rule: WriteAllowRule) => call('POST', '/api/writes/forget', z.array(AllowedWrite), rule, command),
    askAlways: () => call('GET', '/api/writes/ask-always', z.array(AskAlwaysEntry), undefined, read),
    addAskAlways: (rule: AskAlwaysRule) => call('POST', '/api/writes/ask-always', z.array(AskAlwaysEntry), rule, command),
    forgetAskAlways: (rule: AskAlwaysRule) => call('POST', '/api/writes/ask-always/forget', z.array(AskAlwaysEntry), rule, command),
    artifact: (taskId: string, name: string) => bytes(`${audit(taskId)}/artifacts/${encodeURIComponent(name)}`),
    exportAudit: (taskId: string) => bytes(`${audit(taskId)}/export`),
  }
}

export type ServerClient = ReturnType<typeof createServerClient>

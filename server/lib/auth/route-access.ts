import { z } from 'zod'
import {
  AgentTokenView, AllowedWrite, AnswerBody, AskAlwaysBody, AskAlwaysEntry, AuditArtifactParams, AuditKeyInfo, AuditTaskParams,
  AuditView, ClientView, ConfirmBody, CreatedToken, CreateTokenBody, DemoMessageBody, ForgetWriteBody, HealthReply, InfoData,
  NextBody, NextData, OpenApiDocument, PlanBody, ReportBody, ReportData, RevokedToken, SaveRecordingBody, SaveSkillBody,
  SaveSkillData, Skill, SkillParams, SkillSearchResult, SkillsSearchQuery, SkillSummary, StartBody, StartData, StatusData,
  StatusView, TaskCommandBody, TaskIdQuery, TasksQuery, TaskView, TokenIdParams,
  type ApiErrorCode, type PrincipalKind,
} from '#protocol'
import {
  answersBody, answersCreated, answersData, answersFile, answersMcp, answersNothing, type RouteAnswer,
} from './route-answer'

/** One route: who may call it, what it reads and what it answers; `:name` stands for one path segment. */
export interface RouteAccess {
  method: 'GET' | 'POST' | 'DELETE'
  path: string
  accepts: readonly PrincipalKind[]
  /** What the route is for, in the words of docs/security.md's table. */
  what: string
  /** The schemas its handler validates the JSON body, the query and the path's parameters with. */
  body?: z.ZodType
  query?: z.ZodType
  params?: z.ZodType
  answers: RouteAnswer
  /** What it can fail with besides what every route can (bad input, no token, a body too large, INTERNAL). */
  errors?: readonly ApiErrorCode[]
}

const OWNER = ['owner'] as const
const ANYONE = ['anyone'] as const
const MCP = ['owner', 'agent'] as const
/** A change to a task: it may not exist, may be in no state for it, or be busy on another instance. */
const TASK_CHANGE = ['NOT_FOUND', 'CONFLICT', 'UNAVAILABLE'] as const
const DECIDED = answersData(StatusData)

/**
 * Every route the server answers and who may call it: the one place the guard (middleware/0.guard.ts) reads, and a
 * test holds every route file to (and each handler's schemas to the ones named here, which the API reference shows).
 * An agent's token opens /mcp and nothing else: the agent API's confirm, answer, next and report are the person's
 * and their extension's alone, whatever header a caller sends.
 */
export const ROUTE_ACCESS: readonly RouteAccess[] = [
  { method: 'GET', path: '/api/health', accepts: ANYONE, what: 'is the server up', answers: answersBody(HealthReply) },
  { method: 'GET', path: '/api/openapi.json', accepts: ANYONE, what: 'this API as an OpenAPI 3.1 document', answers: answersBody(OpenApiDocument) },
  { method: 'POST', path: '/demo/messages', accepts: ANYONE, what: 'the demo page’s contact form (nothing is kept)', body: DemoMessageBody, answers: answersNothing },
  { method: 'GET', path: '/api/info', accepts: OWNER, what: 'server name, version, LLM configured', answers: answersData(InfoData) },
  {
    method: 'POST', path: '/api/agent/start', accepts: OWNER, what: 'start a task',
    body: StartBody, answers: answersData(StartData), errors: ['NOT_FOUND', 'LLM_NOT_CONFIGURED', 'UNAVAILABLE'],
  },
  {
    method: 'POST', path: '/api/agent/next', accepts: OWNER, what: 'the extension takes its next action (secrets filled in)',
    body: NextBody, answers: answersData(NextData), errors: TASK_CHANGE,
  },
  {
    method: 'POST', path: '/api/agent/report', accepts: OWNER, what: 'the extension reports what an action did',
    body: ReportBody, answers: answersData(ReportData), errors: TASK_CHANGE,
  },
  { method: 'POST', path: '/api/agent/confirm', accepts: OWNER, what: 'approve or reject a risky step', body: ConfirmBody, answers: DECIDED, errors: TASK_CHANGE },
  { method: 'POST', path: '/api/agent/answer', accepts: OWNER, what: 'answer a question', body: AnswerBody, answers: DECIDED, errors: TASK_CHANGE },
  { method: 'POST', path: '/api/agent/plan', accepts: OWNER, what: 'approve, edit or refuse a plan', body: PlanBody, answers: DECIDED, errors: TASK_CHANGE },
  { method: 'POST', path: '/api/agent/pause', accepts: OWNER, what: 'take over', body: TaskCommandBody, answers: DECIDED, errors: TASK_CHANGE },
  { method: 'POST', path: '/api/agent/resume', accepts: OWNER, what: 'hand control back', body: TaskCommandBody, answers: DECIDED, errors: TASK_CHANGE },
  { method: 'POST', path: '/api/agent/cancel', accepts: OWNER, what: 'cancel a task', body: TaskCommandBody, answers: DECIDED, errors: TASK_CHANGE },
  {
    method: 'GET', path: '/api/agent/status', accepts: OWNER, what: 'a task, its steps and what it waits for',
    query: TaskIdQuery, answers: answersData(StatusView), errors: ['NOT_FOUND'],
  },
  { method: 'GET', path: '/api/agent/tasks', accepts: OWNER, what: 'every task', query: TasksQuery, answers: answersData(z.array(TaskView)) },
  { method: 'GET', path: '/api/audit/key', accepts: OWNER, what: 'the public key that signs the audit', answers: answersData(AuditKeyInfo) },
  {
    method: 'GET', path: '/api/audit/:taskId', accepts: OWNER, what: 'a task’s audit events',
    params: AuditTaskParams, answers: answersData(AuditView), errors: ['NOT_FOUND'],
  },
  {
    method: 'GET', path: '/api/audit/:taskId/export', accepts: OWNER, what: 'a task’s audit as a signed zip',
    params: AuditTaskParams, answers: answersFile('application/zip', 'events.jsonl, artifacts/, replay.html and the signed manifest.json'), errors: ['NOT_FOUND'],
  },
  {
    method: 'GET', path: '/api/audit/:taskId/artifacts/:name', accepts: OWNER, what: 'one screenshot',
    params: AuditArtifactParams, answers: answersFile('image/*', 'the screenshot as PNG, JPEG or WebP, as its name says'), errors: ['NOT_FOUND'],
  },
  { method: 'GET', path: '/api/clients', accepts: OWNER, what: 'the extensions that called in', answers: answersData(z.array(ClientView)) },
  { method: 'GET', path: '/api/skills', accepts: OWNER, what: 'every skill', answers: answersData(z.array(SkillSummary)) },
  {
    method: 'POST', path: '/api/skills', accepts: OWNER, what: 'save a task as a skill',
    body: SaveSkillBody, answers: answersData(SaveSkillData), errors: ['NOT_FOUND', 'CONFLICT'],
  },
  {
    method: 'POST', path: '/api/skills/recorded', accepts: OWNER, what: 'save a recording as a skill',
    body: SaveRecordingBody, answers: answersData(SaveSkillData), errors: ['CONFLICT'],
  },
  { method: 'GET', path: '/api/skills/search', accepts: OWNER, what: 'search skills', query: SkillsSearchQuery, answers: answersData(z.array(SkillSearchResult)) },
  { method: 'GET', path: '/api/skills/:slug', accepts: OWNER, what: 'one skill', params: SkillParams, answers: answersData(Skill), errors: ['NOT_FOUND'] },
  { method: 'GET', path: '/api/writes/allowed', accepts: OWNER, what: 'the writes always allowed', answers: answersData(z.array(AllowedWrite)) },
  { method: 'POST', path: '/api/writes/forget', accepts: OWNER, what: 'stop always allowing a write', body: ForgetWriteBody, answers: answersData(z.array(AllowedWrite)) },
  { method: 'GET', path: '/api/writes/ask-always', accepts: OWNER, what: 'the harmless writes always asked about', answers: answersData(z.array(AskAlwaysEntry)) },
  {
    method: 'POST', path: '/api/writes/ask-always', accepts: OWNER, what: 'always ask about a harmless write on a site',
    body: AskAlwaysBody, answers: answersData(z.array(AskAlwaysEntry)),
  },
  {
    method: 'POST', path: '/api/writes/ask-always/forget', accepts: OWNER, what: 'stop always asking about a harmless write',
    body: AskAlwaysBody, answers: answersData(z.array(AskAlwaysEntry)),
  },
  { method: 'GET', path: '/api/tokens', accepts: OWNER, what: 'agent tokens (never the tokens themselves)', answers: answersData(z.array(AgentTokenView)) },
  { method: 'POST', path: '/api/tokens', accepts: OWNER, what: 'make an agent token (shown once)', body: CreateTokenBody, answers: answersCreated(CreatedToken) },
  {
    method: 'DELETE', path: '/api/tokens/:id', accepts: OWNER, what: 'revoke an agent token',
    params: TokenIdParams, answers: answersData(RevokedToken), errors: ['NOT_FOUND'],
  },
  { method: 'POST', path: '/mcp', accepts: MCP, what: 'MCP (Streamable HTTP): an agent’s own tasks only', answers: answersMcp },
  { method: 'GET', path: '/mcp', accepts: MCP, what: 'MCP (Streamable HTTP)', answers: answersMcp },
  { method: 'DELETE', path: '/mcp', accepts: MCP, what: 'MCP: end a session', answers: answersMcp },
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

import type { H3Error } from 'h3'
import { ApiErrorCode, HTTP_STATUS, type ErrorEnvelope } from '#protocol'

const STATUS_CODE: Record<number, ApiErrorCode> = Object.fromEntries(
  Object.entries(HTTP_STATUS).map(([code, status]) => [status, code as ApiErrorCode]),
)

interface ZodLikeIssue { path?: PropertyKey[]; message?: string; code?: string }

function issuesOf(data: unknown): ZodLikeIssue[] | undefined {
  const issues = (data as { issues?: unknown } | undefined)?.issues
  return Array.isArray(issues) ? (issues as ZodLikeIssue[]) : undefined
}

/** Turns any error thrown while handling a request into the envelope and HTTP status the client gets. */
export function toErrorEnvelope(error: Partial<H3Error>): { status: number; body: ErrorEnvelope } {
  const data = error.data as { code?: unknown; details?: unknown } | undefined
  const own = ApiErrorCode.safeParse(data?.code)
  if (own.success) {
    const status = HTTP_STATUS[own.data]
    return { status, body: { ok: false, error: { code: own.data, message: error.message || own.data, ...(data?.details === undefined ? {} : { details: data.details }) } } }
  }
  const issues = issuesOf(error.data)
  if (issues) {
    // Paths and messages only: the input itself is never echoed back.
    const details = issues.map((i) => ({ path: (i.path ?? []).map(String).join('.'), message: i.message ?? 'invalid', code: i.code }))
    // The first problem in the message too, so a person reading only the message learns what to change.
    const first = details[0]
    const message = first ? `The request is not valid: ${first.path ? `${first.path} ` : ''}${first.message}.` : 'The request is not valid.'
    return { status: 400, body: { ok: false, error: { code: 'BAD_REQUEST', message, details } } }
  }
  const status = error.statusCode ?? 500
  const code = status >= 500 ? 'INTERNAL' : (STATUS_CODE[status] ?? 'BAD_REQUEST')
  const message =
    status >= 500
      ? 'Tandem hit an internal error; the server log has the details.'
      : status === 404
        ? 'No such route.'
        : error.message || error.statusMessage || code
  return { status: status >= 500 ? 500 : status, body: { ok: false, error: { code, message } } }
}

import { z } from 'zod'

/** Codes an action can fail with, reported by the extension in an observation. */
export const ActionErrorCode = z.enum([
  'PERMISSION_DENIED',
  'TARGET_NOT_FOUND',
  'TARGET_NOT_INTERACTABLE',
  'TARGET_STALE',
  'NAVIGATION_IN_PROGRESS',
  'TIMEOUT',
  'CONFIRMATION_REQUIRED',
  'INVALID_TASK_TAB',
  'TASK_TAB_CLOSED',
  'PAGE_PREP_FAILED',
  'SCREENSHOT_UNAVAILABLE',
  'READABILITY_TOO_LARGE',
  'ACTION_FAILED',
  /** A navigate step did not bring up its page; `details` (NavigationFailure) says why: dns, refused, http-status… */
  'NAVIGATION_FAILED',
  /** The step would go to a site the person refused ("Don't allow") earlier in this task; `origin` names it. */
  'SITE_REFUSED',
  /** An upload step's file could not be had: no upload folder set on the server, a name that is not a plain file name in it, missing, or too large. */
  'UPLOAD_REFUSED',
  /**
   * The step ran but the page is as it was: the value, choice, state, selection or scroll position it was meant to
   * change did not change. `effect` says what was expected and what was found, so the planner tries another way.
   */
  'ACTION_NO_EFFECT',
  /**
   * Something left the browser unheld while a step the person had not approved ran (a WebSocket message the barrier
   * saw sent but could not hold): it may have reached the site, and the task stops on it.
   */
  'WRITE_UNHELD',
  /**
   * The person took the task over (paused it) while this step ran, so the extension ended the step there: neither
   * the step nor the page failed, and what the step left is whatever the person's page shows now.
   */
  'TAKEN_OVER',
])
export type ActionErrorCode = z.infer<typeof ActionErrorCode>

/** Codes an HTTP request can fail with. */
export const ApiErrorCode = z.enum([
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'LLM_NOT_CONFIGURED',
  'LLM_ERROR',
  'INTERNAL',
  /** Retry soon: the task is busy on another server instance, or the shared store does not answer. */
  'UNAVAILABLE',
])
export type ApiErrorCode = z.infer<typeof ApiErrorCode>

export const ErrorCode = z.union([ApiErrorCode, ActionErrorCode])
export type ErrorCode = z.infer<typeof ErrorCode>

export const HTTP_STATUS: Record<ApiErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  LLM_NOT_CONFIGURED: 503,
  LLM_ERROR: 502,
  INTERNAL: 500,
  UNAVAILABLE: 503,
}

export const ErrorBody = z.object({
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional(),
})
export type ErrorBody = z.infer<typeof ErrorBody>

export const ErrorEnvelope = z.object({ ok: z.literal(false), error: ErrorBody })
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>

export function okEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ ok: z.literal(true), data })
}

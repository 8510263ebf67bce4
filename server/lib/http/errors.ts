import { createError, type H3Error } from 'h3'
import { HTTP_STATUS, type ApiErrorCode } from '#protocol'

/** The one way the server fails a request: a stable code, a message that says what to do. */
export function apiError(code: ApiErrorCode, message: string, details?: unknown): H3Error {
  return createError({ statusCode: HTTP_STATUS[code], statusMessage: code, message, data: { code, details } })
}

export const badRequest = (message: string, details?: unknown) => apiError('BAD_REQUEST', message, details)
export const unauthorized = (message = 'Send the Tandem token as "Authorization: Bearer <token>".') =>
  apiError('UNAUTHORIZED', message)
export const forbidden = (message: string) => apiError('FORBIDDEN', message)
export const notFound = (message: string) => apiError('NOT_FOUND', message)
export const conflict = (message: string, details?: unknown) => apiError('CONFLICT', message, details)
export const payloadTooLarge = (limit: number) =>
  apiError('PAYLOAD_TOO_LARGE', `The request body is larger than ${limit} bytes.`, { limit })
export const llmNotConfigured = () =>
  apiError(
    'LLM_NOT_CONFIGURED',
    'No LLM is configured: set TANDEM_LLM_BASE_URL, TANDEM_LLM_MODEL and (if the provider needs one) TANDEM_LLM_API_KEY, or start the task with a script.',
  )

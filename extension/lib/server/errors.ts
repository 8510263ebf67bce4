import type { ApiErrorCode } from '#protocol'

/**
 * Why a call to the Tandem server failed: the server's own code, or why no answer came. UNREACHABLE: no connection
 * (nothing listens, the network is down); NOT_ANSWERING: the call's deadline passed with no (whole) answer.
 */
export type ServerErrorCode = ApiErrorCode | 'UNREACHABLE' | 'NOT_ANSWERING' | 'BAD_RESPONSE' | 'NOT_CONFIGURED'

export class ServerError extends Error {
  constructor(
    readonly code: ServerErrorCode,
    message: string,
    readonly status?: number,
    /** What the server's envelope added (a CONFLICT names the slug it refused, …). */
    readonly details?: unknown,
  ) {
    super(message)
    this.name = 'ServerError'
  }
}

export const isServerError = (error: unknown, code?: ServerErrorCode): error is ServerError =>
  error instanceof ServerError && (code === undefined || error.code === code)

/**
 * The server gave no answer: unreachable, or not answering within the deadline. Both are retried the same way
 * (the server may have done the work: a report goes again with the same actionId and is applied once).
 */
export const isNoAnswer = (error: unknown): boolean =>
  isServerError(error) && (error.code === 'UNREACHABLE' || error.code === 'NOT_ANSWERING')

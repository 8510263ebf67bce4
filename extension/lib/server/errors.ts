import type { ApiErrorCode } from '#protocol'

/** Why a call to the Tandem server failed: the server's own code, or why no answer came. */
export type ServerErrorCode = ApiErrorCode | 'UNREACHABLE' | 'BAD_RESPONSE' | 'NOT_CONFIGURED'

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

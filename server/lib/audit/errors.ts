import type { ApiErrorCode } from '#protocol'

/** A failure of the audit log; the message is safe to show (it never echoes event data). */
export class AuditError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super(message)
    this.name = 'AuditError'
  }
}

/** An upload or artifact name the server refuses; the message is safe to show and says what was wrong. */
export class ArtifactError extends Error {
  constructor(
    message: string,
    readonly code: 'BAD_REQUEST' | 'PAYLOAD_TOO_LARGE' = 'BAD_REQUEST',
  ) {
    super(message)
    this.name = 'ArtifactError'
  }
}

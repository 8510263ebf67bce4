import type { ActionErrorCode } from '../../../protocol/errors'

/** An action refused or failed in the page, with a stable protocol code. */
export class PageActionError extends Error {
  constructor(
    readonly code: ActionErrorCode,
    message: string,
    /** The site a PERMISSION_DENIED refers to. */
    readonly origin?: string,
  ) {
    super(message)
    this.name = 'PageActionError'
  }
}

export function fail(code: ActionErrorCode, message: string, origin?: string): never {
  throw new PageActionError(code, message, origin)
}

import type { ActionErrorCode } from '../../../protocol/errors'

/** An action refused or failed in the page, with a stable protocol code. */
export class PageActionError extends Error {
  constructor(
    readonly code: ActionErrorCode,
    message: string,
  ) {
    super(message)
    this.name = 'PageActionError'
  }
}

export function fail(code: ActionErrorCode, message: string): never {
  throw new PageActionError(code, message)
}

import type { ActionErrorCode } from '../../../protocol/errors'

/** An action refused or failed in the page, with a stable protocol code. */
export class PageActionError extends Error {
  constructor(
    readonly code: ActionErrorCode,
    message: string,
    /** The site a PERMISSION_DENIED refers to. */
    readonly origin?: string,
    /** For ACTION_NO_EFFECT: what the step should have left, and what it found. */
    readonly effect?: { expected: string; found: string },
  ) {
    super(message)
    this.name = 'PageActionError'
  }
}

export function fail(code: ActionErrorCode, message: string, origin?: string): never {
  throw new PageActionError(code, message, origin)
}

/** The step ran and the page is as it was: says what it should have become and what it is (never a secret value). */
export function noEffect(expected: string, found: string): never {
  throw new PageActionError('ACTION_NO_EFFECT', `nothing changed: expected ${expected}, found ${found}`, undefined, { expected: expected.slice(0, 500), found: found.slice(0, 500) })
}

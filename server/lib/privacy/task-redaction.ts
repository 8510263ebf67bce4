import type { RedactSettings } from '#protocol'
import { redactValues } from './redact'
import type { SecretVault } from './secrets'

/** What a task's redaction reads besides the task: the named secrets and the kinds of personal data to hide. */
export interface PrivacyDeps {
  secrets?: SecretVault
  /** Emails and phone numbers to hide as well (card numbers are always hidden). */
  redact?: RedactSettings
}

/** A task as redaction sees it: the values typed into its credential fields. */
export interface TypedValues {
  sensitive?: string[]
}

/** Everything that must never be written down for this task. */
export const sensitiveOf = (task: TypedValues, deps: Pick<PrivacyDeps, 'secrets'>) => [
  ...(task.sensitive ?? []),
  ...(deps.secrets?.values() ?? []),
]

/** Scrubs a value of this task's typed credentials, the named secrets, card numbers and the configured kinds. */
export const redactFor =
  (task: TypedValues, deps: PrivacyDeps) =>
  <T>(value: T): T =>
    redactValues(value, sensitiveOf(task, deps), deps.redact)

/**
 * A finished task keeps nothing it would only have needed to act: what a script or the model typed into a
 * credential field, card numbers and the configured kinds leave its record, and so does the list of typed values.
 */
export function scrubFinished<Task extends TypedValues>(task: Task, deps: PrivacyDeps): Omit<Task, 'sensitive'> {
  const { sensitive: _, ...rest } = redactFor(task, deps)(task)
  return rest
}

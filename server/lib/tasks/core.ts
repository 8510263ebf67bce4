import type { ArtifactRef, ArtifactUpload, RedactSettings } from '#protocol'
import { isTerminal } from '#protocol'
import type { Planner } from '../agent/planner'
import type { ClientRegistry } from './clients'
import type { PendingEvent } from './events'
import { clientChannel, UNBOUND_CHANNEL, taskChannel, type Notifier } from './notifier'
import type { RiskAssessor } from './propose'
import type { FindSkill } from './start-plan'
import type { TaskStore } from './store'
import { redactValues } from './redact'
import type { TaskRecord } from './task-record'

export interface AuditSink {
  /** Appends the events in order; they are on disk when the promise resolves. */
  appendMany(taskId: string, events: PendingEvent[]): Promise<unknown>
}

export interface ArtifactSink<Decoded = unknown> {
  /** Checks and decodes every upload (throws BAD_REQUEST) before anything is written. */
  decode(uploads: ArtifactUpload[]): Decoded[]
  save(taskId: string, prefix: string, decoded: Decoded[]): Promise<ArtifactRef[]>
}

/** Named secrets ({{secret:NAME}}): the model and the audit see names, only the extension gets values. */
export interface SecretVault {
  values(): string[]
  substitute(text: string): string
}

export interface EngineDeps {
  store: TaskStore
  clients: ClientRegistry
  notifier: Notifier
  policy: RiskAssessor
  audit: AuditSink
  artifacts: ArtifactSink
  planners: { script: Planner; llm?: Planner }
  secrets?: SecretVault
  /** Emails and phone numbers to hide as well (card numbers are always hidden). */
  redact?: RedactSettings
  /** The skills library, for tasks started from a skill. */
  findSkill?: FindSkill
  /** How often a long-poll re-reads storage when nothing in this process woke it (other server instances). */
  pollIntervalMs?: number
}

/**
 * Changes a task under its lock. Every change is described by audit events, which are on disk before the task
 * is saved; a change that produces no event saves nothing. Waiting polls are woken afterwards.
 */
export function createMutate(deps: EngineDeps) {
  return async function mutate<T>(taskId: string, fn: (task: TaskRecord, events: PendingEvent[]) => T | Promise<T>): Promise<T> {
    let touched: TaskRecord | undefined
    const result = await deps.store.update(taskId, async (task) => {
      const events: PendingEvent[] = []
      const value = await fn(task, events)
      if (!events.length) return { result: value }
      await deps.audit.appendMany(taskId, redactFor(task, deps)(events))
      touched = task
      return { task: isTerminal(task.status) ? scrubFinished(task, deps) : task, result: value }
    })
    if (touched) deps.notifier.notify(taskChannel(taskId), touched.clientId ? clientChannel(touched.clientId) : UNBOUND_CHANNEL)
    return result
  }
}
export type Mutate = ReturnType<typeof createMutate>

/** Everything that must never be written down for this task. */
export const sensitiveOf = (task: Pick<TaskRecord, 'sensitive'>, deps: Pick<EngineDeps, 'secrets'>) => [
  ...(task.sensitive ?? []),
  ...(deps.secrets?.values() ?? []),
]

/** Scrubs a value of this task's typed credentials, the named secrets, card numbers and the configured kinds. */
export const redactFor =
  (task: Pick<TaskRecord, 'sensitive'>, deps: Pick<EngineDeps, 'secrets' | 'redact'>) =>
  <T>(value: T): T =>
    redactValues(value, sensitiveOf(task, deps), deps.redact)

/**
 * A finished task keeps nothing it would only have needed to act: what a script or the model typed into a
 * credential field, card numbers and the configured kinds leave its record, and so does the list of typed values.
 */
export function scrubFinished(task: TaskRecord, deps: Pick<EngineDeps, 'secrets' | 'redact'>): TaskRecord {
  const { sensitive: _, ...rest } = redactFor(task, deps)(task)
  return rest
}

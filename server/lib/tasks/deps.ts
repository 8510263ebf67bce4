import type { UploadFolder } from '../privacy/upload-folder'
import type { AllowedWrite, ArtifactRef, AskAlwaysEntry, AskAlwaysRule, ArtifactUpload, Observation, RedactSettings, WriteAllowRule } from '#protocol'
import type { RequestSource } from '../http/source'
import type { SecretVault } from '../privacy/secrets'
import type { PendingEvent } from './events'
import type { Planner } from './planner'
import type { RiskAssessor } from './propose'
import type { FindSkill } from './start-plan'
import type { TaskRecord } from './task-record'

// What the engine is built over. It names these here and lib/state, lib/audit, lib/policy and lib/agent provide
// them, so the engine never imports the rooms that implement it (lib/app wires the two together).

export interface TaskStore {
  create(task: TaskRecord): Promise<void>
  get(taskId: string): Promise<TaskRecord | null>
  /**
   * Runs `change` on a copy of the task under a per-task lock and saves the task it returns (nothing is saved
   * when it returns none, or throws). Throws NOT_FOUND when there is no such task.
   */
  update<T>(taskId: string, change: (task: TaskRecord) => Promise<Change<T>> | Change<T>): Promise<T>
  /**
   * Keeps the record a change is about to make, before its audit events are written: a process killed after the
   * events and before the save leaves it here, and the next start saves it (see createMutate and promoteStaged).
   */
  stage(task: TaskRecord): Promise<void>
  staged(taskId: string): Promise<TaskRecord | null>
  list(): Promise<TaskRecord[]>
  listActive(): Promise<TaskRecord[]>
  getObservation(taskId: string): Promise<Observation | null>
  setObservation(taskId: string, observation: Observation): Promise<void>
}

export interface Change<T> {
  task?: TaskRecord
  result: T
}

export interface ClientInfo {
  clientId: string
  version?: string
  userAgent?: string
  firstSeen: string
  lastSeen: string
}

/** The extensions that have called in: which one is newest gets tasks started without a client. */
export interface ClientRegistry {
  touch(source: RequestSource & { clientId: string }): Promise<void>
  mostRecent(): Promise<ClientInfo | undefined>
  /** The most recently seen first. */
  list(): Promise<ClientInfo[]>
}

/** Wakes long-polls when a task or a client's work changes (channels.ts names what is woken). */
export interface Notifier {
  notify(...channels: (string | undefined)[]): void
  /** Resolves true when any channel is notified, false after `ms` or when `signal` aborts. */
  wait(channels: string[], ms: number, signal?: AbortSignal): Promise<boolean>
}

/** The kinds of write the person always allows on a site ("always allow this on this site"). */
export interface AllowedWrites {
  /** The newest first, at most MAX_ALLOWED_WRITES. */
  list(): Promise<AllowedWrite[]>
  /** Adds the rules not there yet; the oldest go when there are too many. */
  add(rules: WriteAllowRule[], by: string): Promise<void>
  /** Removes one rule, and answers the list after. */
  forget(rule: WriteAllowRule): Promise<AllowedWrite[]>
}

/** The harmless kinds the person wants asked about on a site all the same ("always ask"). */
export interface AskAlwaysRules {
  /** The newest first, at most MAX_ASK_ALWAYS. */
  list(): Promise<AskAlwaysEntry[]>
  /** Adds the rules not there yet; the oldest go when there are too many. */
  add(rules: AskAlwaysRule[], by: string): Promise<void>
  /** Removes one rule, and answers the list after. */
  forget(rule: AskAlwaysRule): Promise<AskAlwaysEntry[]>
}

export interface AuditSink {
  /** Appends the events in order; they are on disk when the promise resolves. */
  appendMany(taskId: string, events: PendingEvent[]): Promise<{ seq: number }[]>
  /** The task's last event, or null when it has none. */
  head(taskId: string): Promise<{ seq: number } | null>
}

export interface ArtifactSink<Decoded = unknown> {
  /** Checks and decodes every upload (throws BAD_REQUEST) before anything is written. */
  decode(uploads: ArtifactUpload[]): Decoded[]
  save(taskId: string, prefix: string, decoded: Decoded[]): Promise<ArtifactRef[]>
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
  /** Writes the person always allows: handed to the extension with every action. None kept when absent. */
  allowedWrites?: AllowedWrites
  /** Harmless kinds always asked about: handed to the extension with every action. None kept when absent. */
  askAlways?: AskAlwaysRules
  /** Emails and phone numbers to hide as well (card numbers are always hidden). */
  redact?: RedactSettings
  /** The folder the person set for uploads (TANDEM_UPLOAD_DIR): an upload step hands over a file from it. */
  uploads?: Pick<UploadFolder, 'check' | 'read'>
  /** The skills library, for tasks started from a skill. */
  findSkill?: FindSkill
  /** How often a long-poll re-reads storage when nothing in this process woke it (other server instances). */
  pollIntervalMs?: number
}

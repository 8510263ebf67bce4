import type { AuditEventWrite, TaskStatus } from '#protocol'
import { assertTransition } from './state-machine'
import type { TaskRecord } from './task-record'

/**
 * An audit event waiting to be appended; the engine writes these before it saves the task they describe. Typed
 * by protocol/audit-events.ts, so data of the wrong shape for its type does not compile.
 */
export type PendingEvent = AuditEventWrite

/** Moves a task to `to` (refusing an illegal move) and records why. */
export function setStatus(task: TaskRecord, to: TaskStatus, events: PendingEvent[], why?: string): void {
  if (task.status === to) return
  assertTransition(task.status, to)
  events.push({ type: 'task.status', data: { from: task.status, to, ...(why ? { reason: why } : {}) } })
  task.status = to
}

/** Moves a task, or, when the person has taken over, where it will go once resumed. */
export function moveTo(task: TaskRecord, to: TaskStatus, events: PendingEvent[], why?: string): void {
  if (task.status === 'PAUSED') task.pausedFrom = to
  else setStatus(task, to, events, why)
}

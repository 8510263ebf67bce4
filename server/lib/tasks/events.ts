import type { TaskStatus } from '#protocol'
import { assertTransition } from './state-machine'
import type { TaskRecord } from './task-record'

/** An audit event waiting to be appended; the engine writes these before it saves the task they describe. */
export interface PendingEvent {
  type: string
  actionId?: string
  data?: Record<string, unknown>
}

/** Moves a task to `to` (refusing an illegal move) and records why. */
export function setStatus(task: TaskRecord, to: TaskStatus, events: PendingEvent[], why?: string): void {
  if (task.status === to) return
  assertTransition(task.status, to)
  events.push({ type: 'task.status', data: { from: task.status, to, ...(why ? { reason: why } : {}) } })
  task.status = to
}

import { setStatus, type PendingEvent } from './events'
import type { TaskRecord } from './task-record'

/** Ends a task: nothing more is queued, an action not yet handed to the browser is dropped, and the audit says how. */
export function finish(task: TaskRecord, to: 'SUCCEEDED' | 'FAILED' | 'CANCELED', events: PendingEvent[], why?: string) {
  task.queue = []
  if (task.current && task.current.phase !== 'dispatched') task.current = null
  setStatus(task, to, events, why)
  events.push({
    type: 'task.finished',
    data: { status: to, ...(task.result ? { result: task.result } : {}), ...(task.error ? { error: task.error } : {}) },
  })
}

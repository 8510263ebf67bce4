import { isTerminal } from '#protocol'
import { redactFor, scrubFinished } from '../privacy/task-redaction'
import { clientChannel, UNBOUND_CHANNEL, taskChannel } from './channels'
import type { EngineDeps } from './deps'
import type { PendingEvent } from './events'
import type { TaskRecord } from './task-record'

/**
 * Changes a task under its lock. Every change is described by audit events, which are on disk before the task
 * is saved; a change that produces no event saves nothing. Waiting polls are woken afterwards.
 *
 * A process killed between the events and the save would leave the audit ahead of the task, and the change would
 * be done again on the next start (a second dispatch, a second observation of one action). So the record the
 * change makes is staged before the events are written, and the next start saves it when the audit holds them.
 * `ready` holds every change back until that start-up repair is done.
 */
export function createMutate(deps: EngineDeps, ready: () => Promise<void> = async () => undefined) {
  return async function mutate<T>(taskId: string, fn: (task: TaskRecord, events: PendingEvent[]) => T | Promise<T>): Promise<T> {
    await ready()
    let touched: TaskRecord | undefined
    const result = await deps.store.update(taskId, async (task) => {
      const events: PendingEvent[] = []
      const value = await fn(task, events)
      if (!events.length) return { result: value }
      // What the task becomes is staged as it will be saved: a finished task's record keeps no typed credential.
      const next = isTerminal(task.status) ? scrubFinished(task, deps) : task
      if (next.auditSeq !== undefined) await deps.store.stage({ ...next, auditSeq: next.auditSeq + events.length })
      const written = await deps.audit.appendMany(taskId, redactFor(task, deps)(events))
      next.auditSeq = written.at(-1)?.seq ?? next.auditSeq
      touched = next
      return { task: next, result: value }
    })
    if (touched) deps.notifier.notify(taskChannel(taskId), touched.clientId ? clientChannel(touched.clientId) : UNBOUND_CHANNEL)
    return result
  }
}

/**
 * After a restart: a task whose staged record is ahead of it, with the audit holding that record's events, lost
 * its save to the kill; the staged record is what the task became. A staged record whose events never reached
 * the audit is a change that never happened, and is left alone.
 */
export async function promoteStaged(deps: Pick<EngineDeps, 'store' | 'audit'>, task: TaskRecord): Promise<boolean> {
  const staged = await deps.store.staged(task.id)
  if (!staged || staged.auditSeq === undefined || staged.auditSeq <= (task.auditSeq ?? -1)) return false
  const head = await deps.audit.head(task.id)
  if (head?.seq !== staged.auditSeq) return false
  return deps.store.update(task.id, (current) =>
    current.auditSeq === task.auditSeq ? { task: { ...staged, rev: current.rev }, result: true } : { result: false },
  )
}
export type Mutate = ReturnType<typeof createMutate>

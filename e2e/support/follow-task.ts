import { falseDones } from './false-done'
import type { Harness } from './harness'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const TERMINAL = ['SUCCEEDED', 'FAILED', 'CANCELED']

export interface Pending {
  actionId: string
  action?: { type: string }
  risk?: string
  reasons?: string[]
}

export interface Followed {
  /** The task's last status view (its steps, its status). */
  view: any
  status: string
  timedOut: boolean
  /** A task that ended SUCCEEDED: the steps its audit calls done although their observation found no effect. */
  falseDone: string[]
}

/**
 * Follows a started task to its end as a person at the console would: each confirmation it asks for is answered by
 * `answer` (approved or not), the extension woken after each answer; a task waiting on the person or paused ends
 * the follow, and one still running after `timeoutMs` is canceled.
 */
export async function followTask(h: Harness, taskId: string, options: { timeoutMs: number; answer: (p: Pending) => boolean; reason?: string }): Promise<Followed> {
  const started = Date.now()
  let view: any
  let status = ''
  let timedOut = false
  for (;;) {
    view = (await h.server.api('GET', `/api/agent/status?taskId=${taskId}`)).body.data
    status = view.task.status
    if (TERMINAL.includes(status)) break
    if (Date.now() - started > options.timeoutMs) {
      timedOut = true
      break
    }
    if (status === 'WAITING_CONFIRMATION' && view.pendingConfirmation) {
      const p = view.pendingConfirmation as Pending
      await h.server.api('POST', '/api/agent/confirm', { taskId, actionId: p.actionId, approved: options.answer(p), reason: options.reason ?? 'e2e' })
      await h.ext.wake()
    } else if (status === 'WAITING_USER' || status === 'PAUSED') {
      break
    }
    await sleep(80)
  }
  if (!TERMINAL.includes(status)) await h.server.api('POST', '/api/agent/cancel', { taskId, reason: 'run over' })
  const falseDone = status === 'SUCCEEDED' ? falseDones(await h.audit(taskId)) : []
  return { view, status, timedOut, falseDone }
}

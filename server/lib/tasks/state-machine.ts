import type { TaskControl, TaskStatus } from '#protocol'
import { canControl, isTerminal } from '#protocol'
import { conflict } from '../http/errors'

const ACTIVE_WAITS: TaskStatus[] = ['WAITING_CONFIRMATION', 'WAITING_USER', 'WAITING_PAGE']

/** Every legal move between states; anything else is refused and changes nothing. */
export const TRANSITIONS: Record<TaskStatus, readonly TaskStatus[]> = {
  RUNNING: [...ACTIVE_WAITS, 'PAUSED', 'SUCCEEDED', 'FAILED', 'CANCELED', 'WAITING_PLAN'],
  WAITING_CONFIRMATION: ['RUNNING', 'PAUSED', 'FAILED', 'CANCELED'],
  WAITING_USER: ['RUNNING', 'PAUSED', 'FAILED', 'CANCELED'],
  WAITING_PAGE: ['RUNNING', 'WAITING_USER', 'WAITING_CONFIRMATION', 'PAUSED', 'SUCCEEDED', 'FAILED', 'CANCELED'],
  // A resumed task goes back to whatever it was waiting for when the person took over.
  PAUSED: ['RUNNING', ...ACTIVE_WAITS, 'CANCELED', 'WAITING_PLAN'],
  SUCCEEDED: [],
  FAILED: [],
  CANCELED: [],
  // A plan-first task's plan waits for the person: approved, it runs; not approved, it is canceled. Nothing runs
  // yet, so there is nothing to take over (TASK_CONTROLS offers no pause).
  WAITING_PLAN: ['RUNNING', 'FAILED', 'CANCELED'],
}

export const canTransition = (from: TaskStatus, to: TaskStatus) => from === to || TRANSITIONS[from].includes(to)

export function assertTransition(from: TaskStatus, to: TaskStatus): void {
  if (!canTransition(from, to)) {
    throw conflict(`A ${from} task cannot become ${to}.`, { from, to })
  }
}

/** Why `control` cannot act on a task in `status`, in words a client can show. */
function refusal(status: TaskStatus, control: TaskControl): string {
  if (isTerminal(status)) return `This task has already finished (${status}).`
  if (control === 'pause' && status === 'PAUSED') return 'This task is already paused.'
  if (control === 'pause' && status === 'WAITING_PLAN') return 'Nothing runs while the plan waits for approval, so there is nothing to take over: answer the plan or cancel the task.'
  if (control === 'resume') return `Only a paused task can be resumed (it is ${status}).`
  if (control === 'confirm') return `No action of this task is waiting for confirmation (it is ${status}).`
  if (control === 'answer') return `This task is not waiting for an answer (it is ${status}).`
  if (control === 'plan') return `This task has no plan waiting for an answer (it is ${status}).`
  return `A ${status} task cannot be told to ${control}.`
}

/** Refuses what the panel would not offer (TASK_CONTROLS): one table for what is shown and what is allowed. */
export function assertControl(status: TaskStatus, control: TaskControl): void {
  if (!canControl(status, control)) throw conflict(refusal(status, control), { status, control })
}

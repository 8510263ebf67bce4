import type { TaskStatus } from '#protocol'
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
  // A plan-first task's plan waits for the person: approved, it runs; not approved, it is canceled.
  WAITING_PLAN: ['RUNNING', 'PAUSED', 'FAILED', 'CANCELED'],
}

export const canTransition = (from: TaskStatus, to: TaskStatus) => from === to || TRANSITIONS[from].includes(to)

export function assertTransition(from: TaskStatus, to: TaskStatus): void {
  if (!canTransition(from, to)) {
    throw conflict(`A ${from} task cannot become ${to}.`, { from, to })
  }
}

import type { TaskStatus } from './task'

/**
 * What a person (or a client) can tell a task: take it over, hand it back, end it, decide the step on the card,
 * answer its question, or answer its plan.
 */
export type TaskControl = 'pause' | 'resume' | 'cancel' | 'confirm' | 'answer' | 'plan'

/**
 * The one table of which control can act in which status: the panel offers exactly these, and the server refuses
 * the rest. A plan waiting for approval has nothing running to take over, so it offers no pause; a finished task
 * offers nothing.
 */
export const TASK_CONTROLS: Record<TaskStatus, readonly TaskControl[]> = {
  RUNNING: ['pause', 'cancel'],
  WAITING_PAGE: ['pause', 'cancel'],
  WAITING_CONFIRMATION: ['confirm', 'pause', 'cancel'],
  WAITING_USER: ['answer', 'pause', 'cancel'],
  WAITING_PLAN: ['plan', 'cancel'],
  PAUSED: ['resume', 'cancel'],
  SUCCEEDED: [],
  FAILED: [],
  CANCELED: [],
}

export const controlsFor = (status: TaskStatus): readonly TaskControl[] => TASK_CONTROLS[status]
export const canControl = (status: TaskStatus, control: TaskControl): boolean => TASK_CONTROLS[status].includes(control)

import { describe, expect, it } from 'vitest'
import { canControl, controlsFor, TaskStatus, TERMINAL_STATUSES, type TaskControl } from '#protocol'
import { assertControl, assertTransition, canTransition, TRANSITIONS } from '../../server/lib/tasks/state-machine'

const ALL = TaskStatus.options
// The expected table, written out: a row per state, the states it may move to.
const LEGAL: Record<string, string[]> = {
  RUNNING: ['WAITING_CONFIRMATION', 'WAITING_USER', 'WAITING_PAGE', 'PAUSED', 'SUCCEEDED', 'FAILED', 'CANCELED', 'WAITING_PLAN'],
  WAITING_CONFIRMATION: ['RUNNING', 'PAUSED', 'FAILED', 'CANCELED'],
  WAITING_USER: ['RUNNING', 'PAUSED', 'FAILED', 'CANCELED'],
  WAITING_PAGE: ['RUNNING', 'WAITING_USER', 'WAITING_CONFIRMATION', 'PAUSED', 'SUCCEEDED', 'FAILED', 'CANCELED'],
  PAUSED: ['RUNNING', 'WAITING_CONFIRMATION', 'WAITING_USER', 'WAITING_PAGE', 'CANCELED', 'WAITING_PLAN'],
  SUCCEEDED: [],
  FAILED: [],
  CANCELED: [],
  // Nothing has run: approved, the task runs; not approved, it is canceled. Nothing to take over.
  WAITING_PLAN: ['RUNNING', 'FAILED', 'CANCELED'],
}

describe('task state machine', () => {
  const rows = ALL.flatMap((from) => ALL.filter((to) => to !== from).map((to) => [from, to, LEGAL[from].includes(to)] as const))

  it.each(rows)('%s → %s legal: %s', (from, to, legal) => {
    expect(canTransition(from, to)).toBe(legal)
    if (legal) expect(() => assertTransition(from, to)).not.toThrow()
    else expect(() => assertTransition(from, to)).toThrow(expect.objectContaining({ statusCode: 409, data: expect.objectContaining({ code: 'CONFLICT' }) }))
  })

  it('terminal states have no way out', () => {
    for (const s of TERMINAL_STATUSES) expect(TRANSITIONS[s]).toEqual([])
  })

  it('every non-terminal state can be canceled', () => {
    for (const s of ALL.filter((s) => !TERMINAL_STATUSES.includes(s))) expect(canTransition(s, 'CANCELED')).toBe(true)
  })
})

describe('the controls of each status (TASK_CONTROLS)', () => {
  const CONTROLS: TaskControl[] = ['pause', 'resume', 'cancel', 'confirm', 'answer', 'plan']
  // The expected table, written out: what the panel offers in each status, and all the server lets through.
  const OFFERED: Record<TaskStatus, TaskControl[]> = {
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

  it.each(ALL)('%s offers exactly its controls, and the server refuses every other one', (status) => {
    expect([...controlsFor(status)].sort()).toEqual([...OFFERED[status]].sort())
    for (const control of CONTROLS) {
      if (OFFERED[status].includes(control)) expect(() => assertControl(status, control)).not.toThrow()
      else expect(() => assertControl(status, control)).toThrow(expect.objectContaining({ statusCode: 409 }))
    }
  })

  it('agrees with the state machine: a status that offers pause can become PAUSED, and one that offers cancel CANCELED', () => {
    for (const status of ALL.filter((s) => s !== 'PAUSED')) {
      expect(canTransition(status, 'PAUSED'), status).toBe(canControl(status, 'pause'))
      if (status !== 'CANCELED') expect(canTransition(status, 'CANCELED'), status).toBe(canControl(status, 'cancel'))
    }
  })

  it('says why a plan waiting for approval cannot be taken over', () => {
    expect(() => assertControl('WAITING_PLAN', 'pause')).toThrow(/nothing to take over/)
  })
})

import { describe, expect, it } from 'vitest'
import { TaskStatus, TERMINAL_STATUSES } from '#protocol'
import { assertTransition, canTransition, TRANSITIONS } from '../../server/lib/tasks/state-machine'

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
  // Nothing has run: approved, the task runs; not approved, it is canceled.
  WAITING_PLAN: ['RUNNING', 'PAUSED', 'FAILED', 'CANCELED'],
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

import { z } from 'zod'
import { isTerminal, type TaskStatus } from '#protocol'

/**
 * The in-page indicator's states (seed 000 §2.2): idle (no task here), hidden (a task owns the tab but shows
 * nothing), ongoing (the agent is in control), takeover (the person is), approval and question (the task waits
 * for the person's decision or answer in the side panel: the bar says where to look).
 */
export const IndicatorState = z.enum(['idle', 'hidden', 'ongoing', 'takeover', 'approval', 'question'])
export type IndicatorState = z.output<typeof IndicatorState>

/** What the task tab shows for a task in `status`; null status means the tab has no task. */
export function indicatorStateFor(status: TaskStatus | null | undefined): IndicatorState {
  if (!status || isTerminal(status)) return 'idle'
  switch (status) {
    case 'PAUSED':
      return 'takeover'
    // The agent waits for the person in the side panel: the page is theirs to look at, not a takeover, and
    // the bar says where the decision waits.
    case 'WAITING_CONFIRMATION':
    case 'WAITING_PLAN':
      return 'approval'
    case 'WAITING_USER':
      return 'question'
    default:
      return 'ongoing'
  }
}

/** Statuses in which the person's input on the page takes control away from the agent. */
export const takesOver = (status: TaskStatus) => status === 'RUNNING' || status === 'WAITING_PAGE'

/** Kinds of the person's input that count as taking over. */
export const TakeoverInput = z.enum(['pointer', 'key', 'wheel', 'touch'])
export type TakeoverInput = z.output<typeof TakeoverInput>

/** The reason the audit records for a takeover. */
export const takeoverReason = (input: TakeoverInput) =>
  `takeover: the person ${{ pointer: 'clicked', key: 'typed', wheel: 'scrolled', touch: 'touched the page' }[input]}${input === 'touch' ? '' : ' in the page'}`

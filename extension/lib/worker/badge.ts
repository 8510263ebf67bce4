import type { TaskStatus } from '#protocol'

/** A task of this client that waits for the person, and the one thing it waits for. */
export interface Waiting {
  taskId: string
  kind: 'confirm' | 'ask'
  /** The pending action or question: one notification each. */
  key: string
  goal: string
}

export interface Badge {
  text: string
  color: string
}

export const BADGE_CONFIRM_COLOR = '#d93025'
export const BADGE_ASK_COLOR = '#e37400'
export const BADGE_CLEAR: Badge = { text: '', color: '#5f6368' }

/** What a task in `status` waits for, if anything. */
export const waitsFor = (status: TaskStatus | null | undefined): Waiting['kind'] | null =>
  status === 'WAITING_CONFIRMATION' || status === 'WAITING_PLAN' ? 'confirm' : status === 'WAITING_USER' ? 'ask' : null

/**
 * The toolbar badge for what waits: "!" for one approval, "?" for one question, the count for several; red
 * when an approval is among them. Empty when nothing waits.
 */
export function badgeFor(waiting: readonly Waiting[]): Badge {
  if (!waiting.length) return BADGE_CLEAR
  const confirms = waiting.some((w) => w.kind === 'confirm')
  const text = waiting.length > 1 ? String(Math.min(waiting.length, 99)) : confirms ? '!' : '?'
  return { text, color: confirms ? BADGE_CONFIRM_COLOR : BADGE_ASK_COLOR }
}

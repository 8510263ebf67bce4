import { createHash } from 'node:crypto'
import type { ActionForm, Observation } from '#protocol'

/** Recent (actions, page) pairs, newest last. */
export type LoopMemory = string[]

export interface LoopLimits {
  /** Decisions remembered. */
  window: number
  /** Occurrences of the same pair in the window that earn the model a warning… */
  warnAt: number
  /** …and that end the task. */
  breakAt: number
}

export const DEFAULT_LOOP_LIMITS: LoopLimits = { window: 8, warnAt: 2, breakAt: 4 }

const digest = (text: string) => createHash('sha1').update(text).digest('base64url').slice(0, 16)

/** What the page looks like to the model; clocks and counters in the page text do not count as progress. */
export const pageKey = (o: Pick<Observation, 'url' | 'elementTree' | 'scroll'>) => digest(`${o.url}\n${Math.round(o.scroll?.y ?? 0)}\n${o.elementTree}`)

/** The actions, minus the model's prose about them. */
export const actionsKey = (actions: ActionForm[]) =>
  digest(JSON.stringify(actions.map((a) => ({ ...a, reason: undefined }))))

/**
 * Records one decision made on one page. The same actions chosen again on an unchanged page is no progress,
 * whether in a row or alternating with something else inside the window.
 */
export function recordDecision(memory: LoopMemory, actions: ActionForm[], page: Pick<Observation, 'url' | 'elementTree' | 'scroll'>, limits = DEFAULT_LOOP_LIMITS) {
  const key = `${actionsKey(actions)}:${pageKey(page)}`
  const next = [...memory, key].slice(-limits.window)
  const occurrences = next.filter((k) => k === key).length
  const verdict: 'ok' | 'warn' | 'break' = occurrences >= limits.breakAt ? 'break' : occurrences >= limits.warnAt ? 'warn' : 'ok'
  return { memory: next, occurrences, verdict }
}

/** How often the last decision was made on this very page, within the window (0 when the page has changed). */
export function repeatsOnPage(memory: LoopMemory, page: Pick<Observation, 'url' | 'elementTree' | 'scroll'>): number {
  const last = memory.at(-1)
  if (!last || !last.endsWith(`:${pageKey(page)}`)) return 0
  return memory.filter((k) => k === last).length
}

import { cut } from './tokens'

/** One decision as the model will remember it: what it thought, what it did, and what came of it. */
export interface HistoryEntry {
  step: number
  evaluation?: string
  memory?: string
  nextGoal?: string
  /** The actions as compact JSON, secret placeholders and all. */
  actions: string[]
  /** One line per action that ran (done, failed with its error, rejected), the person's answer, extracted data. */
  results: string[]
}

export interface HistoryView {
  /** The most recent steps shown in full; older ones get one line each. */
  fullSteps: number
  /** How many of the older one-line steps are shown at all. */
  summaryLines: number
  /** Character limit of each field of a full step. */
  fieldChars: number
}

function fullStep(h: HistoryEntry, chars: number): string {
  return [
    `Step ${h.step}:`,
    h.evaluation && `  evaluation: ${cut(h.evaluation, chars)}`,
    h.memory && `  memory: ${cut(h.memory, chars * 2)}`,
    h.nextGoal && `  next goal: ${cut(h.nextGoal, chars)}`,
    `  actions: ${h.actions.join('; ')}`,
    `  results: ${h.results.length ? h.results.map((r) => cut(r, chars * 2)).join('; ') : '(none reported)'}`,
  ]
    .filter(Boolean)
    .join('\n')
}

const summaryLine = (h: HistoryEntry) =>
  `Step ${h.step}: ${cut(h.actions.join('; '), 120)} → ${cut(h.results.join('; ') || 'no result', 120)}`

/**
 * The history as the prompt shows it: older steps summarised to one line, the latest in full, and the oldest
 * summaries dropped first when even those do not fit.
 */
export function renderHistory(history: HistoryEntry[], view: HistoryView, omittedBefore = 0): string {
  const fullFrom = Math.max(0, history.length - view.fullSteps)
  const older = history.slice(0, fullFrom)
  const shownOlder = view.summaryLines > 0 ? older.slice(-view.summaryLines) : []
  const omitted = omittedBefore + older.length - shownOlder.length
  return [
    ...(omitted > 0 ? [`(${omitted} earlier steps not shown)`] : []),
    ...shownOlder.map(summaryLine),
    ...history.slice(fullFrom).map((h) => fullStep(h, view.fieldChars)),
  ].join('\n')
}

import type { TaskRecord } from '../tasks/task-record'
import type { HistoryEntry } from './prompt/history'
import { cut } from './prompt/tokens'

/** What a failed task got done, for the person reading why it stopped. */
export function summariseRun(task: TaskRecord, history: HistoryEntry[]): string {
  const done = task.steps.filter((s) => s.outcome === 'done').length
  const failed = task.steps.filter((s) => s.outcome === 'failed').length
  const rejected = task.steps.filter((s) => s.outcome === 'rejected').length
  const counts = `${task.steps.length} actions ran (${done} done, ${failed} failed${rejected ? `, ${rejected} rejected` : ''}).`
  const at = task.steps.findLast((s) => s.url)?.url
  const lastMemory = history.findLast((h) => h.memory)?.memory
  const recent = history
    .slice(-3)
    .map((h) => `step ${h.step}: ${cut(h.actions.join('; '), 150)} → ${cut(h.results.join('; ') || 'no result', 150)}`)
  return [counts, at && `Last page: ${cut(at, 200)}.`, lastMemory && `Model's notes: ${cut(lastMemory, 300)}`, recent.length && `Last steps: ${recent.join(' | ')}`]
    .filter(Boolean)
    .join(' ')
}

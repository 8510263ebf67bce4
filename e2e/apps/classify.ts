import { isActionType } from '../../protocol/action-registry'
import type { Looks } from '../support/plan-model'
import type { TandemResult } from '../support/plan-run'
import type { AppsTandem } from './report'
import type { AppTask } from './types'

/** What the task names: the goal's quoted things and what the stopped step looked for (its neighbour, if it has one). */
export function namesOf(task: AppTask, looks: Looks): string[] {
  const step = looks.stoppedAt === undefined ? undefined : task.plan[looks.stoppedAt]
  const find = step && 'find' in step ? step.find : []
  const sought = typeof find === 'object' && !Array.isArray(find) ? [find.near] : [find].flat()
  return [...new Set([...[...task.goal.matchAll(/["“]([^"”]+)["”]/g)].map((m) => m[1]!), ...sought])]
}

/** The few lines of the tree the model was shown that speak of the task's named things, or what it showed instead. */
export function treeExcerpt(page: string, names: string[]): string {
  const lines = page.split('\n').filter((l) => /^\s*\*?\[\d+\]</.test(l))
  if (!lines.length) return 'the tree showed (no interactive elements)'
  const near = new Set<number>()
  lines.forEach((l, i) => names.some((n) => l.includes(n)) && [i - 1, i, i + 1].forEach((j) => j >= 0 && j < lines.length && near.add(j)))
  const shown = near.size ? [...near].sort((a, b) => a - b).map((i) => lines[i]!) : lines.slice(0, 6)
  const quote = shown.slice(0, 8).map((l) => l.trim().slice(0, 120)).join(' ⏎ ') + (lines.length > shown.length ? ` (… ${lines.length} lines)` : '')
  return near.size ? `the tree showed: ${quote}` : `no line of the tree names ${names.map((n) => JSON.stringify(n)).join(' or ')}; it showed: ${quote}`
}

/** The corpus's outcome and one line of cause, from the shared run's result and what the model saw. */
export function classify(task: AppTask, result: TandemResult, looks: Looks, writes: number): AppsTandem {
  const step = looks.stoppedAt === undefined ? undefined : task.plan[looks.stoppedAt]
  const unsupported = !result.reached && step !== undefined && !isActionType(step.type)
  const lost = looks.page ? `; ${treeExcerpt(looks.page, namesOf(task, looks))}` : ''
  const cause = result.outcome === 'pass' ? ''
    : unsupported ? `step ${looks.stoppedAt! + 1} needs ${step!.type}, which Tandem has no action for (${result.failure || looks.gaveUp})${lost}`
    : result.outcome === 'second-look' ? result.looks.join(' · ')
    : result.failure ? `${result.failure}${lost}`
    : `every step ran, yet ${result.why}`
  return { ...result, outcome: unsupported ? 'unsupported' : result.outcome, cause, writes }
}


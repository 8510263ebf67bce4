import { isActionType } from '../../protocol/action-registry'
import type { Looks } from '../support/plan-model'
import type { TandemResult } from '../support/plan-run'
import type { AppsTandem } from './report'
import type { AppTask } from './types'

/** The few lines of the tree the model was shown that speak of the task's named things, or what it showed instead. */
export function treeExcerpt(page: string, task: AppTask): string {
  const lines = page.split('\n').filter((l) => /^\s*\*?\[\d+\]</.test(l) || /no interactive elements/.test(l))
  if (!lines.length) return 'the tree showed (no interactive elements)'
  const named = [...task.goal.matchAll(/["“]([^"”]+)["”]/g)].map((m) => m[1]!)
  const near = new Set<number>()
  lines.forEach((l, i) => named.some((n) => l.includes(n)) && [i - 1, i, i + 1].forEach((j) => j >= 0 && j < lines.length && near.add(j)))
  const shown = near.size ? [...near].sort((a, b) => a - b).map((i) => lines[i]!) : lines.slice(0, 6)
  return `the tree showed: ${shown.slice(0, 8).map((l) => l.trim().slice(0, 120)).join(' ⏎ ')}${lines.length > shown.length ? ` (… ${lines.length} lines)` : ''}`
}

/** The corpus's outcome and one line of cause, from the shared run's result and what the model saw. */
export function classify(task: AppTask, result: TandemResult, looks: Looks): AppsTandem {
  const step = looks.stoppedAt === undefined ? undefined : task.plan[looks.stoppedAt]
  const unsupported = !result.reached && step !== undefined && !isActionType(step.type)
  const lost = looks.page ? `; ${treeExcerpt(looks.page, task)}` : ''
  const cause = result.outcome === 'pass' ? ''
    : unsupported ? `step ${looks.stoppedAt! + 1} needs ${step!.type}, which Tandem has no action for (${result.failure || looks.gaveUp})${lost}`
    : result.outcome === 'second-look' ? result.looks.join(' · ')
    : result.failure ? `${result.failure}${lost}`
    : `every step ran, yet ${result.why}`
  return { ...result, outcome: unsupported ? 'unsupported' : result.outcome, cause }
}


import type { Task } from './types'

/**
 * The suite's share of the zoo: the first two tasks of every family, then the first task of every need not yet
 * covered, so each library and each thing the issue asks Tandem to learn is there, in about half the full run's time.
 */
export function suiteShare(tasks: Task[]): Task[] {
  const chosen = new Set<Task>()
  const perFamily = new Map<string, number>()
  for (const t of tasks) {
    const n = perFamily.get(t.family) ?? 0
    if (n < 2) (perFamily.set(t.family, n + 1), chosen.add(t))
  }
  const needs = new Set([...chosen].flatMap((t) => t.needs))
  for (const t of tasks) {
    const fresh = t.needs.filter((n) => !needs.has(n))
    if (fresh.length) (chosen.add(t), fresh.forEach((n) => needs.add(n)))
  }
  return tasks.filter((t) => chosen.has(t))
}

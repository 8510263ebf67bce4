import type { AppTask } from './types'

/**
 * The suite's share of the apps corpus: every TodoMVC task once, each in a build three along from the last (so the
 * share holds every kind of task and most builds, the large page included), and the first task of every jQuery-era
 * page.
 */
export function suiteShare(tasks: AppTask[]): AppTask[] {
  const todomvc = tasks.filter((t) => t.group === 'todomvc')
  const builds = [...new Set(todomvc.map((t) => t.app))]
  const kinds = [...new Set(todomvc.map((t) => t.id.slice(t.app.length + 1)))]
  const chosen = new Set(kinds.map((kind, k) => todomvc.find((t) => t.id === `${builds[(k * 3) % builds.length]}-${kind}`)))
  const pages = new Set<string>()
  for (const t of tasks) if (t.group === 'jquery-era' && !pages.has(t.app)) (pages.add(t.app), chosen.add(t))
  return tasks.filter((t) => chosen.has(t))
}

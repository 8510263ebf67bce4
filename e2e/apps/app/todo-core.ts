/**
 * What every TodoMVC build here shares, per the app spec: todos kept in localStorage under the page's key (seeded once
 * when the key is empty), the filter read from the hash (#/, #/active, #/completed), and the list operations. Each
 * framework draws the standard markup (todomvc-app-css styles it) in its own idiom around these.
 */
import 'todomvc-app-css/index.css'
import { apps } from './spec'

export interface Todo {
  id: string
  title: string
  completed: boolean
}

export type Filter = 'all' | 'active' | 'completed'

export const ENTER = 'Enter'
export const ESCAPE = 'Escape'

let counter = 0
export const uid = (): string => `${Date.now().toString(36)}-${(counter++).toString(36)}`

export function load(): Todo[] {
  const raw = localStorage.getItem(apps.storageKey)
  if (raw !== null) return JSON.parse(raw) as Todo[]
  const seeded = apps.seed.map(([title, completed]) => ({ id: uid(), title, completed }))
  save(seeded)
  return seeded
}

export function save(todos: Todo[]): void {
  localStorage.setItem(apps.storageKey, JSON.stringify(todos.map(({ id, title, completed }) => ({ id, title, completed }))))
}

export const filterOf = (hash: string): Filter => (hash === '#/active' ? 'active' : hash === '#/completed' ? 'completed' : 'all')
export const shown = (todos: Todo[], filter: Filter): Todo[] => todos.filter((t) => (filter === 'all' ? true : filter === 'active' ? !t.completed : t.completed))
export const activeCount = (todos: Todo[]): number => todos.filter((t) => !t.completed).length
export const itemsLeft = (n: number): string => (n === 1 ? 'item' : 'items') + ' left'

export const FILTERS: { filter: Filter; href: string; label: string }[] = [
  { filter: 'all', href: '#/', label: 'All' },
  { filter: 'active', href: '#/active', label: 'Active' },
  { filter: 'completed', href: '#/completed', label: 'Completed' },
]

/** The list operations, each returning the new list (the spec trims titles; an emptied title deletes the todo). */
export const ops = {
  add: (todos: Todo[], title: string): Todo[] => (title.trim() ? [...todos, { id: uid(), title: title.trim(), completed: false }] : todos),
  toggle: (todos: Todo[], id: string): Todo[] => todos.map((t) => (t.id === id ? { ...t, completed: !t.completed } : t)),
  toggleAll: (todos: Todo[], completed: boolean): Todo[] => todos.map((t) => ({ ...t, completed })),
  destroy: (todos: Todo[], id: string): Todo[] => todos.filter((t) => t.id !== id),
  edit: (todos: Todo[], id: string, title: string): Todo[] => (title.trim() ? todos.map((t) => (t.id === id ? { ...t, title: title.trim() } : t)) : todos.filter((t) => t.id !== id)),
  clearCompleted: (todos: Todo[]): Todo[] => todos.filter((t) => !t.completed),
}

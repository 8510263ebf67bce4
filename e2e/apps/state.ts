/**
 * The verdict: the page's state as Playwright reads it once the task has ended (its localStorage, and for TodoMVC the
 * list it shows, looked for through shadow roots too), compared with what the task must leave. Never what Tandem
 * or the baseline report.
 */
import type { Page } from 'playwright-core'
import type { Verdict } from '../support/plan-run'
import type { Expect, Filter, StateExpect, TodosExpect } from './types'

/** One todo as the page draws it. */
export interface ShownTodo {
  title: string
  completed: boolean
  /** Drawn with a box (a filter may leave it in the DOM, hidden). */
  visible: boolean
}

export interface PageState {
  url: string
  /** The page's state in localStorage (JSON), or null when it keeps none under its key. */
  stored: unknown
  /** TodoMVC: every item of the list, in order. */
  items: ShownTodo[]
  /** TodoMVC: the item count's text ("2 items left"), or null when the footer is not drawn. */
  count: string | null
  /** TodoMVC: the text of the filter link drawn as selected, or null. */
  selected: string | null
}

/**
 * What runs in the page to read its state. Kept as source text: the TypeScript loader names the functions it
 * compiles with a helper (__name) that a page does not have.
 */
const READ_STATE = `(key) => {
  // Every element matching the selector in the document and in every open shadow root below it, in tree order.
  const deep = (root, selector) => {
    const out = []
    const walk = (node) => {
      for (const el of node.querySelectorAll('*')) {
        if (el.matches(selector)) out.push(el)
        if (el.shadowRoot) walk(el.shadowRoot)
      }
    }
    walk(root)
    return out
  }
  const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden'
  const raw = localStorage.getItem(key)
  let stored = null
  try {
    stored = raw === null ? null : JSON.parse(raw)
  } catch {
    stored = raw
  }
  const items = deep(document, '.todo-list > li').map((li) => ({
    title: (li.querySelector('label')?.textContent ?? '').trim(),
    completed: li.classList.contains('completed'),
    visible: visible(li),
  }))
  const count = deep(document, '.todo-count').find(visible)?.textContent?.replace(/\\s+/g, ' ').trim() ?? null
  const selected = deep(document, '.filters a.selected')[0]?.textContent?.trim() ?? null
  return { url: location.href, stored, items, count, selected }
}`

/** Reads the state of the page showing a task (in the baseline's browser or in Tandem's). */
export function readState(page: Page, storageKey: string): Promise<PageState> {
  return page.evaluate(`(${READ_STATE})(${JSON.stringify(storageKey)})`) as Promise<PageState>
}

const FILTER_LABEL: Record<Filter, string> = { all: 'All', active: 'Active', completed: 'Completed' }
const HASHES: Record<Filter, string[]> = { all: ['', '#', '#/'], active: ['#/active'], completed: ['#/completed'] }
const show = (list: [string, boolean][]) => JSON.stringify(list.map(([t, done]) => (done ? `${t} ✓` : t)))

/** TodoMVC: the stored list is the expected one, the page draws it under the filter it must show, the count agrees. */
export function judgeTodos(expect: TodosExpect, state: PageState): Verdict {
  const filter = expect.filter ?? 'all'
  if (!Array.isArray(state.stored)) return { ok: false, why: `no todo list in localStorage (${JSON.stringify(state.stored)})` }
  const stored = (state.stored as { title?: unknown; completed?: unknown }[]).map((t): [string, boolean] => [String(t.title), t.completed === true])
  if (show(stored) !== show(expect.todos)) return { ok: false, why: `stored todos ${show(stored)}, wanted ${show(expect.todos)}` }
  const hash = new URL(state.url).hash
  if (!HASHES[filter].includes(hash)) return { ok: false, why: `the address shows ${hash || 'no filter'}, wanted ${HASHES[filter].at(-1)}` }
  const wanted = expect.todos.filter(([, done]) => (filter === 'all' ? true : filter === 'active' ? !done : done))
  const drawn = state.items.filter((i) => i.visible).map((i): [string, boolean] => [i.title, i.completed])
  if (show(drawn) !== show(wanted)) return { ok: false, why: `the list shows ${show(drawn)}, wanted ${show(wanted)}` }
  if (expect.todos.length && state.selected !== FILTER_LABEL[filter]) return { ok: false, why: `the selected filter is ${JSON.stringify(state.selected)}, wanted ${FILTER_LABEL[filter]}` }
  const left = expect.todos.filter(([, done]) => !done).length
  const counted = state.count === null ? null : Number(/\d+/.exec(state.count)?.[0])
  if (expect.todos.length && counted !== left) return { ok: false, why: `the count says ${JSON.stringify(state.count)}, wanted ${left} left` }
  return { ok: true, why: '' }
}

/** JSON with every object's keys sorted, so two values compare equal whatever order their keys were set in. */
export function canonical(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])])) : v
  return JSON.stringify(sort(value)) ?? 'undefined'
}

/** A jQuery-era page: each expected key of its stored state holds the expected value (compared as JSON). */
export function judgeStored(expect: StateExpect, state: PageState): Verdict {
  if (!state.stored || typeof state.stored !== 'object' || Array.isArray(state.stored)) return { ok: false, why: `no page state in localStorage (${JSON.stringify(state.stored)})` }
  const stored = state.stored as Record<string, unknown>
  for (const [key, value] of Object.entries(expect.state)) {
    if (canonical(stored[key]) !== canonical(value)) return { ok: false, why: `${key} was ${key in stored ? canonical(stored[key]) : 'not set'}, wanted ${canonical(value)}` }
  }
  return { ok: true, why: '' }
}

export const judgeState = (expect: Expect, state: PageState): Verdict => ('todos' in expect ? judgeTodos(expect, state) : judgeStored(expect, state))

import { describe, expect, it } from 'vitest'
import { classify, namesOf, treeExcerpt } from '../../e2e/apps/classify'
import { needlessAsks, summarise } from '../../e2e/apps/report'
import { canonical, judgeStored, judgeTodos, type PageState } from '../../e2e/apps/state'
import { indexNear, type PlanStep } from '../../e2e/support/plan-model'
import type { TandemResult } from '../../e2e/support/plan-run'
import { TASKS } from '../../e2e/apps/tasks'

// The apps corpus judges each task by the page's state, never by what Tandem reports: these pin what each verdict
// accepts and what it refuses, so a judge that waves everything through cannot pass unseen.
const SEED: [string, boolean][] = [['Buy milk', false], ['Walk the dog', false], ['Water the plants', true]]
const page = (over: Partial<PageState> = {}): PageState => ({
  url: 'http://127.0.0.1:1/a/p1/',
  stored: SEED.map(([title, completed], i) => ({ id: String(i), title, completed })),
  items: SEED.map(([title, completed]) => ({ title, completed, visible: true })),
  count: '2 items left',
  selected: 'All',
  ...over,
})

describe('the TodoMVC verdict', () => {
  it('passes a page whose storage, list, filter and count all agree with the task', () => {
    expect(judgeTodos({ todos: SEED }, page())).toEqual({ ok: true, why: '' })
  })

  it('fails when the stored list differs, in a title, a completion or the order', () => {
    expect(judgeTodos({ todos: [['Buy oat milk', false], SEED[1]!, SEED[2]!] }, page()).ok).toBe(false)
    expect(judgeTodos({ todos: [['Buy milk', true], SEED[1]!, SEED[2]!] }, page()).ok).toBe(false)
    expect(judgeTodos({ todos: [SEED[1]!, SEED[0]!, SEED[2]!] }, page()).ok).toBe(false)
    expect(judgeTodos({ todos: SEED }, page({ stored: null })).why).toMatch(/no todo list/)
  })

  it('fails a page that stored the change but still draws the old list, or a wrong count', () => {
    const done: [string, boolean][] = [['Buy milk', false], ['Walk the dog', true], ['Water the plants', true]]
    const stored = done.map(([title, completed]) => ({ title, completed }))
    expect(judgeTodos({ todos: done }, page({ stored, count: '1 item left' })).why).toMatch(/the list shows/)
    const drawn = done.map(([title, completed]) => ({ title, completed, visible: true }))
    expect(judgeTodos({ todos: done }, page({ stored, items: drawn, count: '2 items left' })).why).toMatch(/count/)
    expect(judgeTodos({ todos: done }, page({ stored, items: drawn, count: '1 item left' })).ok).toBe(true)
  })

  it('wants the filter in the address, the filtered list drawn and its link selected', () => {
    const active = SEED.map(([title, completed]) => ({ title, completed, visible: !completed }))
    expect(judgeTodos({ todos: SEED, filter: 'active' }, page({ url: 'http://h/a/p1/#/active', items: active, selected: 'Active' })).ok).toBe(true)
    expect(judgeTodos({ todos: SEED, filter: 'active' }, page()).why).toMatch(/address/)
    expect(judgeTodos({ todos: SEED, filter: 'active' }, page({ url: 'http://h/a/p1/#/active', selected: 'Active' })).why).toMatch(/the list shows/)
    expect(judgeTodos({ todos: SEED, filter: 'active' }, page({ url: 'http://h/a/p1/#/active', items: active, selected: 'All' })).why).toMatch(/selected filter/)
    // Items a filter hides but leaves in the DOM (Backbone's .hidden) do not count as shown.
    const completed = SEED.map(([title, done]) => ({ title, completed: done, visible: done }))
    expect(judgeTodos({ todos: SEED, filter: 'completed' }, page({ url: 'http://h/a/p1/#/completed', items: completed, selected: 'Completed' })).ok).toBe(true)
    expect(judgeTodos({ todos: SEED }, page({ url: 'http://h/a/p1/#/' })).ok).toBe(true)
  })
})

describe('the jQuery-era verdict', () => {
  it('compares each expected key as JSON, whatever order the page set nested keys in', () => {
    const state = page({ stored: { review: { comment: '', rating: 4 }, favourites: [] } })
    expect(judgeStored({ state: { review: { rating: 4, comment: '' } } }, state)).toEqual({ ok: true, why: '' })
    expect(judgeStored({ state: { review: { rating: 5, comment: '' } } }, state).ok).toBe(false)
    expect(judgeStored({ state: { country: 'Portugal' } }, state).why).toMatch(/not set/)
    expect(judgeStored({ state: { order: ['a', 'b'] } }, page({ stored: { order: ['b', 'a'] } })).ok).toBe(false)
    expect(judgeStored({ state: { discarded: true } }, page({ stored: null })).ok).toBe(false)
    expect(canonical({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}')
  })
})

describe('the apps tasks', () => {
  it('expect a change of state from each task (no task is judged by a page left as it started)', () => {
    const unchanged = TASKS.filter((t) => 'todos' in t.expect && !t.expect.filter && JSON.stringify(t.expect.todos) === JSON.stringify(t.seed)).map((t) => t.id)
    expect(unchanged).toEqual([])
  })

  it('have unique ids, every TodoMVC build the same eight kinds, and goals in both languages', () => {
    expect(new Set(TASKS.map((t) => t.id)).size).toBe(TASKS.length)
    const builds = new Set(TASKS.filter((t) => t.group === 'todomvc').map((t) => t.app))
    expect(builds.size).toBeGreaterThanOrEqual(9)
    for (const b of builds) expect(TASKS.filter((t) => t.app === b)).toHaveLength(8)
    expect(new Set(TASKS.map((t) => t.lang))).toEqual(new Set(['en', 'zh']))
  })
})

describe("Tandem's outcome on an apps task", () => {
  const edit = TASKS.find((t) => t.id.endsWith('-edit') && t.lang === 'en')!
  const run = (over: Partial<TandemResult>): TandemResult => ({ id: edit.id, outcome: 'fail', reached: false, why: 'stored todos differ', looks: [], failure: '', approved: 0, status: 'FAILED', untrue: '', steps: [], ms: 1, ...over })

  it('is "unsupported" only where the model stopped at a step Tandem has no action for and the goal was not reached', () => {
    // The edit's double click is an action now: a model stopped there failed like any other step.
    expect(edit.plan[0]!.type).toBe('double_click')
    const gaveUp = run({ failure: 'model gave up: the server did not take the answer' })
    expect(classify(edit, gaveUp, { waited: [], retried: [], stoppedAt: 0 }, 0).outcome).toBe('fail')
    const tripled = { ...edit, plan: [{ ...edit.plan[0]!, type: 'triple_click' } as unknown as PlanStep, ...edit.plan.slice(1)] }
    expect(classify(tripled, gaveUp, { waited: [], retried: [], stoppedAt: 0 }, 0).outcome).toBe('unsupported')
    expect(classify(tripled, run({}), { waited: [], retried: [], stoppedAt: 1 }, 0).outcome).toBe('fail')
    expect(classify(tripled, run({ outcome: 'pass', reached: true, why: '' }), { waited: [], retried: [], stoppedAt: 0 }, 0).outcome).toBe('pass')
  })

  it("counts a question needless unless the task's page sent a write that reached the site", () => {
    const asked = (approved: number, writes: number) => needlessAsks(classify(edit, run({ outcome: 'pass', reached: true, why: '', approved }), { waited: [], retried: [] }, writes))
    expect(asked(1, 1)).toBe(0)
    expect(asked(2, 3)).toBe(1)
    expect(asked(1, 0)).toBe(1)
    expect(asked(0, 0)).toBe(0)
  })

  it('lists a task whose step was reported without effect, and one asked more than its write', () => {
    const row = (steps: string[], approved: number, writes: number) => ({ task: edit, baseline: { id: edit.id, ok: true, why: '', ms: 1 }, tandem: classify(edit, run({ outcome: 'pass', reached: true, why: '', steps, approved }), { waited: [], retried: [] }, writes) })
    const s = summarise([row(['double_click:done', 'type:failed:ACTION_NO_EFFECT'], 0, 0), row(['click:done'], 2, 1)])
    expect(s.noEffect).toEqual([edit.id])
    expect(s.overAsked).toEqual([edit.id])
    expect(summarise([row(['click:done'], 1, 1)])).toMatchObject({ noEffect: [], overAsked: [], needless: 0, asked: 1 })
  })

  it('says why a run that ran every step still failed, from the verdict', () => {
    expect(classify(edit, run({}), { waited: [], retried: [] }, 0).cause).toBe('every step ran, yet stored todos differ')
  })

  it('quotes the tree lines near the named todo, or says the tree had nothing to act on', () => {
    const tree = '[1]<input placeholder="What needs to be done?">\n[2]<input type=checkbox>\n[3]<label>Buy milk</label>\n[4]<a href="#/">All</a>'
    const names = namesOf(edit, { waited: [], retried: [], stoppedAt: 0 })
    expect(names).toEqual(['Buy milk', 'Buy oat milk'])
    expect(treeExcerpt(tree, names)).toBe('the tree showed: [2]<input type=checkbox> ⏎ [3]<label>Buy milk</label> ⏎ [4]<a href="#/">All</a> (… 4 lines)')
    expect(treeExcerpt('[0]<span>\n[1]<span>', ['Delete'])).toBe('no line of the tree names "Delete"; it showed: [0]<span> ⏎ [1]<span>')
    expect(treeExcerpt('(no interactive elements)', names)).toBe('the tree showed (no interactive elements)')
  })
})

describe('a control named by what it stands next to', () => {
  it('is the nearest line with its words to the line naming its neighbour, never a lookalike elsewhere', () => {
    const tree = '[0]<li>budget.xlsx\n[1]<span icon=glyphicon-remove>\n[2]<li>notes.pdf\n[3]<span icon=glyphicon-remove>'
    expect(indexNear(tree, 'budget.xlsx', ['remove'])).toBe(1)
    expect(indexNear(tree, 'notes.pdf', ['remove'])).toBe(3)
    // A TodoMVC row: the checkbox stands before its label, the × after it, the next row's checkbox further on.
    const rows = '[0]<input type=checkbox>\n[1]<label>Buy milk\n[2]<button>\n[3]<input type=checkbox>\n[4]<label>Walk the dog\n[5]<button>'
    expect(indexNear(rows, 'Walk the dog', ['checkbox'])).toBe(3)
    expect(indexNear(rows, 'Buy milk', ['checkbox'])).toBe(0)
    // Two lines alike and nothing saying whose is whose: no target, as a careful person would not guess.
    expect(indexNear('[0]<span icon=glyphicon-remove>\n[1]<span icon=glyphicon-remove>', 'budget.xlsx', ['remove'])).toBeUndefined()
    expect(indexNear('[4]<input type=checkbox row="Walk the dog">', 'Walk the dog', ['checkbox'])).toBe(4)
  })
})

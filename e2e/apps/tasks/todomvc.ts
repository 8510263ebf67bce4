/**
 * TodoMVC tasks, the same eight on every build: add two todos, complete one, filter to Active and to Completed,
 * clear completed, delete one (its × shows only under the pointer), edit one (a double-click), mark all complete.
 */
import type { Locator, Page } from 'playwright-core'
import type { AppTask, Filter, Framework } from '../types'

type Todos = [string, boolean][]

interface Words {
  seed: Todos
  added: [string, string]
  renamed: string
  goals: Record<Kind, (t: string[]) => string>
}

const KINDS = ['add', 'complete', 'filter-active', 'filter-completed', 'clear-completed', 'delete', 'edit', 'toggle-all'] as const
type Kind = (typeof KINDS)[number]

const EN: Words = {
  seed: [['Buy milk', false], ['Walk the dog', false], ['Call the plumber', false], ['Water the plants', true]],
  added: ['Pay the electricity bill', 'Book the dentist'],
  renamed: 'Buy oat milk',
  goals: {
    add: () => 'Add "Pay the electricity bill" and "Book the dentist" to my todos',
    complete: (t) => `Mark "${t[1]}" as done`,
    'filter-active': () => 'Show only the todos I still have to do',
    'filter-completed': () => 'Show only the todos I have completed',
    'clear-completed': () => 'Clear the completed todos',
    delete: (t) => `Delete the todo "${t[2]}"`,
    edit: (t) => `Rename "${t[0]}" to "Buy oat milk"`,
    'toggle-all': () => 'Mark all my todos as complete',
  },
}

const ZH: Words = {
  seed: [['买牛奶', false], ['遛狗', false], ['给水管工打电话', false], ['浇花', true]],
  added: ['交电费', '预约牙医'],
  renamed: '买燕麦奶',
  goals: {
    add: () => '添加两个待办：“交电费”和“预约牙医”',
    complete: (t) => `把“${t[1]}”标记为已完成`,
    'filter-active': () => '只显示还没完成的待办',
    'filter-completed': () => '只显示已经完成的待办',
    'clear-completed': () => '清除已完成的待办',
    delete: (t) => `删除待办“${t[2]}”`,
    edit: (t) => `把“${t[0]}”改成“买燕麦奶”`,
    'toggle-all': () => '把所有待办都标记为已完成',
  },
}

const NEW_TODO = 'What needs to be done?'
const row = (p: Page, title: string): Locator => p.locator('.todo-list li').filter({ hasText: title }).first()
const newTodo = async (p: Page, title: string) => (await p.locator('.new-todo').fill(title), await p.locator('.new-todo').press('Enter'))

/** One task of a kind, in the words and todos of its language. */
function todoTask(kind: Kind, w: Words): Pick<AppTask, 'goal' | 'plan' | 'baseline' | 'expect'> {
  const titles = w.seed.map(([t]) => t)
  const [first, second, third] = titles as [string, string, string]
  const goal = w.goals[kind](titles)
  const same = (filter?: Filter) => ({ todos: w.seed, ...(filter ? { filter } : {}) })
  switch (kind) {
    case 'add':
      return {
        goal,
        plan: w.added.map((text) => ({ type: 'type' as const, find: NEW_TODO, text, submit: true })),
        baseline: async (p) => { for (const t of w.added) await newTodo(p, t) },
        expect: { todos: [...w.seed, ...w.added.map((t): [string, boolean] => [t, false])] },
      }
    case 'complete':
      return {
        goal,
        // "The checkbox of Walk the dog": drawn by its label's background, the input itself at opacity 0.
        plan: [{ type: 'click', find: { near: second, find: 'checkbox' } }],
        baseline: async (p) => row(p, second).locator('.toggle').check(),
        expect: { todos: w.seed.map(([t, done]): [string, boolean] => [t, done || t === second]) },
      }
    case 'filter-active':
      return { goal, plan: [{ type: 'click', find: 'Active' }], baseline: async (p) => p.getByRole('link', { name: 'Active', exact: true }).click(), expect: same('active') }
    case 'filter-completed':
      return { goal, plan: [{ type: 'click', find: 'Completed' }], baseline: async (p) => p.getByRole('link', { name: 'Completed', exact: true }).click(), expect: same('completed') }
    case 'clear-completed':
      return {
        goal,
        plan: [{ type: 'click', find: 'Clear completed' }],
        baseline: async (p) => p.getByRole('button', { name: 'Clear completed' }).click(),
        expect: { todos: w.seed.filter(([, done]) => !done) },
      }
    case 'delete':
      return {
        goal,
        // The × is drawn by CSS (::after) and shown only while the pointer is over the todo.
        plan: [{ type: 'hover', find: third }, { type: 'click', find: { near: third, find: ['×', 'Delete', 'delete', 'Remove', 'remove', 'destroy'] } }],
        baseline: async (p) => (await row(p, third).hover(), await row(p, third).locator('.destroy').click()),
        expect: { todos: w.seed.filter(([t]) => t !== third) },
      }
    case 'edit':
      return {
        goal,
        plan: [{ type: 'double_click', find: first }, { type: 'type', find: first, text: w.renamed, submit: true }],
        baseline: async (p) => {
          await row(p, first).locator('label').dblclick()
          await row(p, first).locator('.edit').fill(w.renamed)
          await row(p, first).locator('.edit').press('Enter')
        },
        expect: { todos: w.seed.map(([t, done]): [string, boolean] => [t === first ? w.renamed : t, done]) },
      }
    case 'toggle-all':
      return {
        goal,
        plan: [{ type: 'click', find: 'Mark all as complete' }],
        baseline: async (p) => p.locator('.toggle-all').check({ force: true }),
        expect: { todos: w.seed.map(([t]): [string, boolean] => [t, true]) },
      }
  }
}

/** The builds, in the report's order; the last is React again, mounted in a large page of unrelated content. */
export const FRAMEWORKS: { app: string; entry: Framework; layout: 'alone' | 'large-page' }[] = [
  ...(['react', 'redux', 'vue', 'preact', 'svelte', 'lit', 'backbone', 'jquery', 'vanilla', 'wc'] as const).map((entry) => ({ app: entry, entry, layout: 'alone' as const })),
  { app: 'react-in-page', entry: 'react', layout: 'large-page' },
]

/** Every build's eight tasks; about a third in Chinese (goal and todos), spread over kinds and builds. */
export const TODOMVC: AppTask[] = FRAMEWORKS.flatMap(({ app, entry, layout }, a) =>
  KINDS.map((kind, k) => {
    const lang = (a + k) % 3 === 0 ? 'zh' : 'en'
    const w = lang === 'zh' ? ZH : EN
    return { id: `${app}-${kind}`, app, group: 'todomvc', entry, page: 'todomvc', layout, lang, title: `${app} • TodoMVC`, seed: w.seed, ...todoTask(kind, w) } satisfies AppTask
  }),
)

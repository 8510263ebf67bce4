/**
 * The TodoMVC view for the hooks libraries (React, Preact): one component tree written against `h` and the hooks,
 * drawn by whichever library is handed in, so each runs its own reconciler and event system over the same markup.
 * State lives with the caller (useState in the React app, a Redux store in the Redux one, a reducer in Preact's).
 */
import { ENTER, ESCAPE, FILTERS, activeCount, itemsLeft, shown, type Filter, type Todo } from './todo-core'

/** What the view asks of the app's state. */
export interface TodoActions {
  add(title: string): void
  toggle(id: string): void
  toggleAll(completed: boolean): void
  destroy(id: string): void
  edit(id: string, title: string): void
  clearCompleted(): void
}

/** The part of React's and Preact's API the view uses. */
export interface Hooks {
  h: (type: any, props?: any, ...children: any[]) => any
  useState: <S>(initial: S | (() => S)) => [S, (next: S | ((prev: S) => S)) => void]
  useEffect: (effect: () => void | (() => void), deps?: unknown[]) => void
  useRef: <T>(initial: T) => { current: T }
}

/** The filter the hash names, kept current as the person follows the filter links. */
export function useHashFilter({ useState, useEffect }: Hooks): Filter {
  const [hash, setHash] = useState(location.hash)
  useEffect(() => {
    const changed = () => setHash(location.hash)
    addEventListener('hashchange', changed)
    return () => removeEventListener('hashchange', changed)
  }, [])
  return hash === '#/active' ? 'active' : hash === '#/completed' ? 'completed' : 'all'
}

export function hooksView(hooks: Hooks) {
  const { h, useState, useEffect, useRef } = hooks

  function Item({ todo, actions }: { todo: Todo; actions: TodoActions }) {
    const [editing, setEditing] = useState(false)
    const [text, setText] = useState(todo.title)
    const input = useRef<HTMLInputElement | null>(null)
    useEffect(() => {
      if (editing) input.current?.focus()
    }, [editing])
    const finish = () => {
      if (!editing) return
      setEditing(false)
      actions.edit(todo.id, text)
    }
    return h('li', { className: [todo.completed && 'completed', editing && 'editing'].filter(Boolean).join(' ') },
      h('div', { className: 'view' },
        h('input', { className: 'toggle', type: 'checkbox', checked: todo.completed, onChange: () => actions.toggle(todo.id) }),
        // React names the double-click onDoubleClick, Preact onDblClick (the DOM's dblclick): each ignores the other's.
        h('label', { onDoubleClick: () => (setText(todo.title), setEditing(true)), onDblClick: () => (setText(todo.title), setEditing(true)) }, todo.title),
        h('button', { className: 'destroy', onClick: () => actions.destroy(todo.id) })),
      h('input', {
        className: 'edit',
        ref: input,
        value: text,
        onInput: (e: Event) => setText((e.target as HTMLInputElement).value),
        onChange: (e: Event) => setText((e.target as HTMLInputElement).value),
        onBlur: finish,
        onKeyDown: (e: KeyboardEvent) => {
          if (e.key === ENTER) finish()
          if (e.key === ESCAPE) (setText(todo.title), setEditing(false))
        },
      }))
  }

  return function TodoApp({ todos, actions }: { todos: Todo[]; actions: TodoActions }) {
    const filter = useHashFilter(hooks)
    const [title, setTitle] = useState('')
    const left = activeCount(todos)
    const done = todos.length - left
    return h('section', { className: 'todoapp' },
      h('header', { className: 'header' },
        h('h1', null, 'todos'),
        h('input', {
          className: 'new-todo',
          placeholder: 'What needs to be done?',
          autoFocus: true,
          value: title,
          onInput: (e: Event) => setTitle((e.target as HTMLInputElement).value),
          onChange: (e: Event) => setTitle((e.target as HTMLInputElement).value),
          onKeyDown: (e: KeyboardEvent) => {
            if (e.key !== ENTER) return
            actions.add((e.target as HTMLInputElement).value)
            setTitle('')
          },
        })),
      todos.length > 0 && h('section', { className: 'main' },
        h('input', { id: 'toggle-all', className: 'toggle-all', type: 'checkbox', checked: left === 0, onChange: () => actions.toggleAll(left !== 0) }),
        h('label', { htmlFor: 'toggle-all' }, 'Mark all as complete'),
        h('ul', { className: 'todo-list' }, shown(todos, filter).map((todo) => h(Item, { key: todo.id, todo, actions })))),
      todos.length > 0 && h('footer', { className: 'footer' },
        h('span', { className: 'todo-count' }, h('strong', null, left), ` ${itemsLeft(left)}`),
        h('ul', { className: 'filters' }, FILTERS.map((f) => h('li', { key: f.filter }, h('a', { href: f.href, className: f.filter === filter ? 'selected' : '' }, f.label)))),
        done > 0 && h('button', { className: 'clear-completed', onClick: actions.clearCompleted }, 'Clear completed')))
  }
}

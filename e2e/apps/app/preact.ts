/** TodoMVC in Preact: the list in a useReducer, saved to localStorage on every change; Preact's own hooks and DOM. */
import { h, render } from 'preact'
import { useEffect, useReducer, useRef, useState } from 'preact/hooks'
import { hooksView, type Hooks } from './hooks-view'
import { load, ops, save, type Todo } from './todo-core'

const TodoApp = hooksView({ h, useState, useEffect, useRef } as unknown as Hooks)

type Change = (todos: Todo[]) => Todo[]

function App() {
  const [todos, change] = useReducer((state: Todo[], f: Change) => f(state), undefined, load)
  useEffect(() => save(todos), [todos])
  return h(TodoApp, {
    todos,
    actions: {
      add: (title: string) => change((t) => ops.add(t, title)),
      toggle: (id: string) => change((t) => ops.toggle(t, id)),
      toggleAll: (completed: boolean) => change((t) => ops.toggleAll(t, completed)),
      destroy: (id: string) => change((t) => ops.destroy(t, id)),
      edit: (id: string, title: string) => change((t) => ops.edit(t, id, title)),
      clearCompleted: () => change(ops.clearCompleted),
    },
  })
}

render(h(App, null), document.getElementById('app')!)

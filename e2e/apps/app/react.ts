/** TodoMVC in React with hooks: the list in useState, saved to localStorage on every change. */
import { createElement, useEffect, useRef, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { hooksView, type Hooks, type TodoActions } from './hooks-view'
import { load, ops, save, type Todo } from './todo-core'

const hooks = { h: createElement, useState, useEffect, useRef } as unknown as Hooks
const TodoApp = hooksView(hooks)

function App() {
  const [todos, setTodos] = useState<Todo[]>(load)
  useEffect(() => save(todos), [todos])
  const actions: TodoActions = {
    add: (title) => setTodos((t) => ops.add(t, title)),
    toggle: (id) => setTodos((t) => ops.toggle(t, id)),
    toggleAll: (completed) => setTodos((t) => ops.toggleAll(t, completed)),
    destroy: (id) => setTodos((t) => ops.destroy(t, id)),
    edit: (id, title) => setTodos((t) => ops.edit(t, id, title)),
    clearCompleted: () => setTodos(ops.clearCompleted),
  }
  return createElement(TodoApp, { todos, actions })
}

createRoot(document.getElementById('app')!).render(createElement(App))

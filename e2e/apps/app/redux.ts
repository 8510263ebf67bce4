/** TodoMVC in React + Redux: a reducer owns the list, react-redux hands it to the view, a subscriber saves it. */
import { createElement, useEffect, useRef, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { Provider, useDispatch, useSelector } from 'react-redux'
import { legacy_createStore as createStore } from 'redux'
import { hooksView, type Hooks, type TodoActions } from './hooks-view'
import { load, ops, save, type Todo } from './todo-core'

type Action =
  | { type: 'ADD_TODO'; title: string }
  | { type: 'TOGGLE_TODO'; id: string }
  | { type: 'TOGGLE_ALL'; completed: boolean }
  | { type: 'DELETE_TODO'; id: string }
  | { type: 'EDIT_TODO'; id: string; title: string }
  | { type: 'CLEAR_COMPLETED' }

function todos(state: Todo[] = load(), action: Action): Todo[] {
  switch (action.type) {
    case 'ADD_TODO': return ops.add(state, action.title)
    case 'TOGGLE_TODO': return ops.toggle(state, action.id)
    case 'TOGGLE_ALL': return ops.toggleAll(state, action.completed)
    case 'DELETE_TODO': return ops.destroy(state, action.id)
    case 'EDIT_TODO': return ops.edit(state, action.id, action.title)
    case 'CLEAR_COMPLETED': return ops.clearCompleted(state)
    default: return state
  }
}

const store = createStore(todos)
store.subscribe(() => save(store.getState()))

const TodoApp = hooksView({ h: createElement, useState, useEffect, useRef } as unknown as Hooks)

function Connected() {
  const list = useSelector((s: Todo[]) => s)
  const dispatch = useDispatch()
  const actions: TodoActions = {
    add: (title) => dispatch({ type: 'ADD_TODO', title }),
    toggle: (id) => dispatch({ type: 'TOGGLE_TODO', id }),
    toggleAll: (completed) => dispatch({ type: 'TOGGLE_ALL', completed }),
    destroy: (id) => dispatch({ type: 'DELETE_TODO', id }),
    edit: (id, title) => dispatch({ type: 'EDIT_TODO', id, title }),
    clearCompleted: () => dispatch({ type: 'CLEAR_COMPLETED' }),
  }
  return createElement(TodoApp, { todos: list, actions })
}

createRoot(document.getElementById('app')!).render(createElement(Provider, { store, children: createElement(Connected) }))

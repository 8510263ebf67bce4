/** TodoMVC in Svelte 5, compiled by the Svelte compiler through Vite. */
import { mount } from 'svelte'
import TodoApp from './TodoApp.svelte'

mount(TodoApp, { target: document.getElementById('app')! })

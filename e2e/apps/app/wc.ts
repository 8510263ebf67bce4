/**
 * TodoMVC as Web Components, no library: <todo-app> and one <todo-item> per todo, each with its own shadow root that
 * adopts the TodoMVC stylesheet. An item says what the person did with composed events; the app owns the list.
 */
import appCss from 'todomvc-app-css/index.css?inline'
import { ENTER, ESCAPE, FILTERS, activeCount, filterOf, itemsLeft, load, ops, save, shown, type Todo } from './todo-core'

const sheet = new CSSStyleSheet()
sheet.replaceSync(appCss)

const say = (from: Element, type: string, detail: unknown = null) => from.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }))

class TodoItem extends HTMLElement {
  private todo!: Todo
  constructor() {
    super()
    const root = this.attachShadow({ mode: 'open' })
    root.adoptedStyleSheets = [sheet]
    // The stylesheet's item rules start at .todo-list: the item's shadow root has a list of its own.
    root.innerHTML = '<ul class="todo-list"><li><div class="view"><input class="toggle" type="checkbox"><label></label><button class="destroy"></button></div><input class="edit"></li></ul>'
    const $ = <T extends Element>(s: string) => root.querySelector(s) as T
    const li = $<HTMLLIElement>('li')
    const edit = $<HTMLInputElement>('.edit')
    const finish = () => {
      if (!li.classList.contains('editing')) return
      li.classList.remove('editing')
      say(this, 'todo-rename', { id: this.todo.id, title: edit.value })
    }
    $('.toggle').addEventListener('change', () => say(this, 'todo-toggle', this.todo.id))
    $('.destroy').addEventListener('click', () => say(this, 'todo-remove', this.todo.id))
    $('label').addEventListener('dblclick', () => {
      li.classList.add('editing')
      edit.value = this.todo.title
      edit.focus()
    })
    edit.addEventListener('keydown', (e) => {
      if (e.key === ENTER) finish()
      if (e.key === ESCAPE) li.classList.remove('editing')
    })
    edit.addEventListener('blur', finish)
  }
  set item(todo: Todo) {
    this.todo = todo
    const root = this.shadowRoot!
    root.querySelector('li')!.classList.toggle('completed', todo.completed)
    root.querySelector<HTMLInputElement>('.toggle')!.checked = todo.completed
    root.querySelector('label')!.textContent = todo.title
  }
}

class TodoApp extends HTMLElement {
  private todos = load()
  private root = this.attachShadow({ mode: 'open' })
  connectedCallback() {
    this.root.adoptedStyleSheets = [sheet]
    this.root.innerHTML = `<section class="todoapp">
      <header class="header"><h1>todos</h1><input class="new-todo" placeholder="What needs to be done?" autofocus></header>
      <section class="main"><input id="toggle-all" class="toggle-all" type="checkbox"><label for="toggle-all">Mark all as complete</label><ul class="todo-list"></ul></section>
      <footer class="footer"><span class="todo-count"></span><ul class="filters">${FILTERS.map((f) => `<li><a href="${f.href}">${f.label}</a></li>`).join('')}</ul><button class="clear-completed">Clear completed</button></footer>
    </section>`
    const $ = <T extends Element>(s: string) => this.root.querySelector(s) as T
    $('.new-todo').addEventListener('keydown', (e) => {
      const input = e.target as HTMLInputElement
      if ((e as KeyboardEvent).key !== ENTER || !input.value.trim()) return
      this.change(ops.add(this.todos, input.value))
      input.value = ''
    })
    $('.toggle-all').addEventListener('change', (e) => this.change(ops.toggleAll(this.todos, (e.target as HTMLInputElement).checked)))
    $('.clear-completed').addEventListener('click', () => this.change(ops.clearCompleted(this.todos)))
    this.addEventListener('todo-toggle', (e) => this.change(ops.toggle(this.todos, (e as CustomEvent<string>).detail)))
    this.addEventListener('todo-remove', (e) => this.change(ops.destroy(this.todos, (e as CustomEvent<string>).detail)))
    this.addEventListener('todo-rename', (e) => {
      const { id, title } = (e as CustomEvent<{ id: string; title: string }>).detail
      this.change(ops.edit(this.todos, id, title))
    })
    addEventListener('hashchange', () => this.draw())
    this.draw()
  }
  private change(next: Todo[]) {
    this.todos = next
    save(next)
    this.draw()
  }
  private draw() {
    const $ = <T extends HTMLElement>(s: string) => this.root.querySelector(s) as T
    const filter = filterOf(location.hash)
    const left = activeCount(this.todos)
    const list = $('.todo-list')
    const items = shown(this.todos, filter).map((todo) => {
      const el = ([...list.children] as (TodoItem & HTMLElement)[]).find((c) => c.dataset.id === todo.id) ?? (document.createElement('todo-item') as TodoItem)
      el.dataset.id = todo.id
      el.item = todo
      return el
    })
    list.replaceChildren(...items)
    $('.main').style.display = this.todos.length ? '' : 'none'
    $('.footer').style.display = this.todos.length ? '' : 'none'
    $<HTMLInputElement>('.toggle-all').checked = this.todos.length > 0 && left === 0
    $('.todo-count').innerHTML = `<strong>${left}</strong> ${itemsLeft(left)}`
    $('.clear-completed').style.display = this.todos.length > left ? '' : 'none'
    this.root.querySelectorAll('.filters a').forEach((a) => a.classList.toggle('selected', filterOf(a.getAttribute('href')!) === filter))
  }
}

customElements.define('todo-item', TodoItem)
customElements.define('todo-app', TodoApp)
document.getElementById('app')!.append(document.createElement('todo-app'))

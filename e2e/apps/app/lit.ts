/**
 * TodoMVC in Lit: one <todo-app> element with a shadow root, its template re-rendered from the list; the TodoMVC
 * stylesheet adopted into the shadow root (the page's own styles do not reach inside).
 */
import { LitElement, html, nothing, unsafeCSS } from 'lit'
import { classMap } from 'lit/directives/class-map.js'
import { repeat } from 'lit/directives/repeat.js'
import appCss from 'todomvc-app-css/index.css?inline'
import { ENTER, ESCAPE, FILTERS, activeCount, filterOf, itemsLeft, load, ops, save, shown, type Todo } from './todo-core'

class TodoApp extends LitElement {
  static override styles = unsafeCSS(appCss)
  static override properties = { todos: { state: true }, filter: { state: true }, editing: { state: true } }
  // Declared, then set in the constructor: a class field would hide the reactive accessor Lit defines.
  declare todos: Todo[]
  declare filter: ReturnType<typeof filterOf>
  declare editing: string | null

  constructor() {
    super()
    this.todos = load()
    this.filter = filterOf(location.hash)
    this.editing = null
  }

  override connectedCallback(): void {
    super.connectedCallback()
    addEventListener('hashchange', () => (this.filter = filterOf(location.hash)))
  }

  private change(next: Todo[]) {
    this.todos = next
    save(next)
  }

  private onNew(e: KeyboardEvent) {
    if (e.key !== ENTER) return
    const input = e.target as HTMLInputElement
    this.change(ops.add(this.todos, input.value))
    input.value = ''
  }

  private async startEdit(todo: Todo) {
    this.editing = todo.id
    await this.updateComplete
    const input = this.renderRoot.querySelector<HTMLInputElement>('li.editing .edit')
    if (input) (input.value = todo.title, input.focus())
  }

  private finishEdit(e: Event) {
    if (this.editing === null) return
    const id = this.editing
    this.editing = null
    this.change(ops.edit(this.todos, id, (e.target as HTMLInputElement).value))
  }

  private item(todo: Todo) {
    return html`<li class=${classMap({ completed: todo.completed, editing: this.editing === todo.id })}>
      <div class="view">
        <input class="toggle" type="checkbox" .checked=${todo.completed} @change=${() => this.change(ops.toggle(this.todos, todo.id))}>
        <label @dblclick=${() => this.startEdit(todo)}>${todo.title}</label>
        <button class="destroy" @click=${() => this.change(ops.destroy(this.todos, todo.id))}></button>
      </div>
      ${this.editing === todo.id
        ? html`<input class="edit" @blur=${this.finishEdit} @keydown=${(e: KeyboardEvent) => (e.key === ENTER ? this.finishEdit(e) : e.key === ESCAPE ? (this.editing = null) : undefined)}>`
        : nothing}
    </li>`
  }

  override render() {
    const left = activeCount(this.todos)
    return html`<section class="todoapp">
      <header class="header"><h1>todos</h1><input class="new-todo" placeholder="What needs to be done?" autofocus @keydown=${this.onNew}></header>
      ${this.todos.length ? html`<section class="main">
        <input id="toggle-all" class="toggle-all" type="checkbox" .checked=${left === 0} @change=${(e: Event) => this.change(ops.toggleAll(this.todos, (e.target as HTMLInputElement).checked))}>
        <label for="toggle-all">Mark all as complete</label>
        <ul class="todo-list">${repeat(shown(this.todos, this.filter), (t) => t.id, (t) => this.item(t))}</ul>
      </section>
      <footer class="footer">
        <span class="todo-count"><strong>${left}</strong> ${itemsLeft(left)}</span>
        <ul class="filters">${FILTERS.map((f) => html`<li><a href=${f.href} class=${f.filter === this.filter ? 'selected' : ''}>${f.label}</a></li>`)}</ul>
        ${this.todos.length > left ? html`<button class="clear-completed" @click=${() => this.change(ops.clearCompleted(this.todos))}>Clear completed</button>` : nothing}
      </footer>` : nothing}
    </section>`
  }
}

customElements.define('todo-app', TodoApp)
document.getElementById('app')!.append(document.createElement('todo-app'))

/**
 * TodoMVC in jQuery, as the classic example is written: the whole list drawn again from one template on every
 * change, every event delegated from the app's root (`on('dblclick', 'label', …)`), the filter from the hash.
 */
import $ from 'jquery'
import { ENTER, ESCAPE, FILTERS, activeCount, filterOf, itemsLeft, load, ops, save, shown, type Todo } from './todo-core'

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const App = {
  todos: load(),
  filter: filterOf(location.hash),
  init() {
    $('#app').html(
      '<section class="todoapp"><header class="header"><h1>todos</h1><input class="new-todo" placeholder="What needs to be done?" autofocus></header>' +
        '<section class="main"><input id="toggle-all" class="toggle-all" type="checkbox"><label for="toggle-all">Mark all as complete</label><ul class="todo-list"></ul></section>' +
        '<footer class="footer"></footer></section>',
    )
    $('.new-todo').on('keyup', (e) => this.create(e))
    $('.toggle-all').on('change', (e) => this.set(ops.toggleAll(this.todos, (e.target as HTMLInputElement).checked)))
    $('.footer').on('click', '.clear-completed', () => this.set(ops.clearCompleted(this.todos)))
    $('.todo-list')
      .on('change', '.toggle', (e) => this.set(ops.toggle(this.todos, this.idOf(e.target))))
      .on('dblclick', 'label', (e) => this.edit(e.target))
      .on('keyup', '.edit', (e) => this.editKeyup(e))
      .on('focusout', '.edit', (e) => this.update(e.target))
      .on('click', '.destroy', (e) => this.set(ops.destroy(this.todos, this.idOf(e.target))))
    $(window).on('hashchange', () => ((this.filter = filterOf(location.hash)), this.render()))
    this.render()
  },
  idOf(el: Element): string {
    return $(el).closest('li').data('id')
  },
  set(todos: Todo[]) {
    this.todos = todos
    save(todos)
    this.render()
  },
  render() {
    const left = activeCount(this.todos)
    $('.todo-list').html(
      shown(this.todos, this.filter)
        .map((t) => `<li data-id="${t.id}"${t.completed ? ' class="completed"' : ''}><div class="view"><input class="toggle" type="checkbox"${t.completed ? ' checked' : ''}><label>${escapeHtml(t.title)}</label><button class="destroy"></button></div><input class="edit" value="${escapeHtml(t.title)}"></li>`)
        .join(''),
    )
    $('.main').toggle(this.todos.length > 0)
    $('.toggle-all').prop('checked', left === 0)
    $('.footer').toggle(this.todos.length > 0).html(
      `<span class="todo-count"><strong>${left}</strong> ${itemsLeft(left)}</span><ul class="filters">${FILTERS.map((f) => `<li><a href="${f.href}"${f.filter === this.filter ? ' class="selected"' : ''}>${f.label}</a></li>`).join('')}</ul>` +
        (this.todos.length > left ? '<button class="clear-completed">Clear completed</button>' : ''),
    )
  },
  create(e: JQuery.KeyUpEvent) {
    const input = $(e.target)
    if (e.key !== ENTER || !String(input.val()).trim()) return
    const next = ops.add(this.todos, String(input.val()))
    input.val('')
    this.set(next)
  },
  edit(label: Element) {
    const input = $(label).closest('li').addClass('editing').find('.edit')
    const value = String(input.val())
    input.val('').trigger('focus').val(value)
  },
  editKeyup(e: JQuery.KeyUpEvent) {
    if (e.key === ENTER) (e.target as HTMLInputElement).blur()
    if (e.key === ESCAPE) $(e.target).data('abort', true).trigger('blur')
  },
  update(el: Element) {
    const input = $(el)
    if (input.data('abort')) return void (input.data('abort', false), this.render())
    this.set(ops.edit(this.todos, this.idOf(el), String(input.val())))
  },
}

App.init()

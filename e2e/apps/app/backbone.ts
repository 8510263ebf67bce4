/**
 * TodoMVC in Backbone (with jQuery and Underscore templates): a Collection of Models kept in localStorage, one View
 * per todo listening to its model, the app View delegating DOM events through its `events` map, a Router for the
 * filter.
 */
import Backbone from 'backbone'
import $ from 'jquery'
import _ from 'underscore'
import { ENTER, ESCAPE, FILTERS, filterOf, itemsLeft, load, save, uid, type Filter } from './todo-core'

Backbone.$ = $

// Written the way Backbone apps were: Model.extend, Collection.extend, View.extend with an `events` map.
const TodoModel = Backbone.Model.extend({
  defaults: { title: '', completed: false },
  toggle() {
    this.save({ completed: !this.get('completed') })
  },
  // A model's own save and destroy persist the list it belongs to.
  sync(method: string, model: Backbone.Model, options: { success?: (r: unknown) => void }) {
    if (method === 'delete') todos.remove(model)
    todos.persist()
    options.success?.(model.toJSON())
    return model
  },
})
type TodoModel = Backbone.Model & { toggle(): void }

const TodoList = Backbone.Collection.extend({
  model: TodoModel,
  // The collection is the store: reading it loads the list, each change writes the whole list again.
  sync(method: string, collection: Backbone.Collection, options: { success(r: unknown): void }) {
    if (method === 'read') options.success(load())
    return collection
  },
  persist() {
    save(this.toJSON())
  },
  completed() {
    return this.filter((t: Backbone.Model) => t.get('completed'))
  },
  remaining() {
    return this.filter((t: Backbone.Model) => !t.get('completed'))
  },
})

const todos = new TodoList() as Backbone.Collection<TodoModel> & { persist(): void; completed(): TodoModel[]; remaining(): TodoModel[] }
let filter: Filter = 'all'

const itemTemplate = _.template(
  '<div class="view"><input class="toggle" type="checkbox" <%= completed ? "checked" : "" %>><label><%- title %></label><button class="destroy"></button></div><input class="edit" value="<%- title %>">',
)
const footerTemplate = _.template(
  '<span class="todo-count"><strong><%= remaining %></strong> <%- left %></span><ul class="filters"><% _.each(filters, function (f) { %><li><a href="<%= f.href %>" class="<%= f.filter === current ? "selected" : "" %>"><%- f.label %></a></li><% }) %></ul><% if (completed) { %><button class="clear-completed">Clear completed</button><% } %>',
)

const TodoView = Backbone.View.extend({
  tagName: 'li',
  events: {
    'click .toggle': 'toggleCompleted',
    'dblclick label': 'edit',
    'click .destroy': 'clear',
    'keypress .edit': 'updateOnEnter',
    'keydown .edit': 'revertOnEscape',
    'blur .edit': 'close',
  },
  initialize() {
    this.listenTo(this.model, 'change', this.render)
    this.listenTo(this.model, 'destroy', this.remove)
  },
  render() {
    this.$el.html(itemTemplate(this.model.toJSON()))
    this.$el.toggleClass('completed', this.model.get('completed'))
    this.$el.toggleClass('hidden', filter === 'active' ? this.model.get('completed') : filter === 'completed' ? !this.model.get('completed') : false)
    return this
  },
  toggleCompleted() {
    this.model.toggle()
  },
  edit() {
    this.$el.addClass('editing')
    this.$('.edit').trigger('focus')
  },
  close() {
    if (!this.$el.hasClass('editing')) return
    const value = String(this.$('.edit').val()).trim()
    this.$el.removeClass('editing')
    if (value) this.model.save({ title: value })
    else this.clear()
  },
  updateOnEnter(e: JQuery.KeyPressEvent) {
    if (e.key === ENTER) this.close()
  },
  revertOnEscape(e: JQuery.KeyDownEvent) {
    if (e.key !== ESCAPE) return
    this.$el.removeClass('editing')
    this.$('.edit').val(this.model.get('title'))
  },
  clear() {
    this.model.destroy()
  },
})

const AppView = Backbone.View.extend({
  events: {
    'keypress .new-todo': 'createOnEnter',
    'click .clear-completed': 'clearCompleted',
    'click .toggle-all': 'toggleAllComplete',
  },
  initialize() {
    this.$el.html(
      '<section class="todoapp"><header class="header"><h1>todos</h1><input class="new-todo" placeholder="What needs to be done?" autofocus></header>' +
        '<section class="main"><input id="toggle-all" class="toggle-all" type="checkbox"><label for="toggle-all">Mark all as complete</label><ul class="todo-list"></ul></section>' +
        '<footer class="footer"></footer></section>',
    )
    this.listenTo(todos, 'add', this.addOne)
    this.listenTo(todos, 'reset', this.addAll)
    this.listenTo(todos, 'change:completed', this.filterOne)
    this.listenTo(todos, 'filter', this.filterAll)
    this.listenTo(todos, 'all', _.debounce(this.render, 0))
    todos.fetch({ reset: true })
  },
  render() {
    const remaining = todos.remaining().length
    const shown = todos.length > 0
    this.$('.main').toggle(shown)
    this.$('.footer').toggle(shown)
    this.$('.footer').html(footerTemplate({ remaining, left: itemsLeft(remaining), completed: todos.completed().length, filters: FILTERS, current: filter }))
    ;(this.$('.toggle-all')[0] as HTMLInputElement).checked = shown && !remaining
    return this
  },
  addOne(todo: TodoModel) {
    this.$('.todo-list').append(new TodoView({ model: todo }).render().el)
  },
  addAll() {
    this.$('.todo-list').html('')
    todos.each(this.addOne, this)
  },
  filterOne(todo: TodoModel) {
    todo.trigger('visible')
  },
  filterAll() {
    todos.each((t) => t.trigger('change'))
  },
  createOnEnter(e: JQuery.KeyPressEvent) {
    const input = this.$('.new-todo')
    const title = String(input.val()).trim()
    if (e.key !== ENTER || !title) return
    todos.add({ id: uid(), title, completed: false })
    todos.persist()
    input.val('')
  },
  clearCompleted() {
    _.invoke(todos.completed(), 'destroy')
    return false
  },
  toggleAllComplete() {
    const completed = (this.$('.toggle-all')[0] as HTMLInputElement).checked
    todos.each((t) => t.save({ completed }))
  },
})

const TodoRouter = Backbone.Router.extend({
  routes: { '*filter': 'setFilter' },
  setFilter(param: string | null) {
    // Backbone hands the route its fragment without the leading slash: "active" for #/active.
    filter = filterOf(`#/${(param ?? '').replace(/^\//, '')}`)
    todos.trigger('filter')
  },
})

new AppView({ el: '#app' })
new TodoRouter()
Backbone.history.start()

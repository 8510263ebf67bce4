/**
 * TodoMVC in plain JavaScript, after the vanilla-es6 example: a small model, a view that draws the list into the
 * standard markup, and listeners delegated from the list for every item's controls.
 */
import { ENTER, ESCAPE, FILTERS, activeCount, filterOf, itemsLeft, load, ops, save, shown, type Todo } from './todo-core'

const $ = <T extends Element = HTMLElement>(selector: string, scope: ParentNode = document) => scope.querySelector(selector) as T
/** Listens on `root` for events from descendants matching `selector`, as the example's $delegate does. */
function delegate(root: Element, selector: string, type: string, handler: (el: HTMLElement, e: Event) => void, capture = false) {
  root.addEventListener(type, (e) => {
    const el = (e.target as Element).closest(selector)
    if (el && root.contains(el)) handler(el as HTMLElement, e)
  }, capture)
}

document.getElementById('app')!.innerHTML = `<section class="todoapp">
  <header class="header"><h1>todos</h1><input class="new-todo" placeholder="What needs to be done?" autofocus></header>
  <section class="main"><input id="toggle-all" class="toggle-all" type="checkbox"><label for="toggle-all">Mark all as complete</label><ul class="todo-list"></ul></section>
  <footer class="footer"><span class="todo-count"></span><ul class="filters">${FILTERS.map((f) => `<li><a href="${f.href}">${f.label}</a></li>`).join('')}</ul><button class="clear-completed">Clear completed</button></footer>
</section>`

let todos = load()
const list = $('.todo-list')
const idOf = (el: Element) => el.closest('li')!.dataset.id!

function change(next: Todo[]) {
  todos = next
  save(todos)
  draw()
}

function itemElement(todo: Todo): HTMLLIElement {
  const li = document.createElement('li')
  li.dataset.id = todo.id
  if (todo.completed) li.className = 'completed'
  li.innerHTML = '<div class="view"><input class="toggle" type="checkbox"><label></label><button class="destroy"></button></div>'
  $<HTMLInputElement>('.toggle', li).checked = todo.completed
  $('label', li).textContent = todo.title
  return li
}

function draw() {
  const filter = filterOf(location.hash)
  const left = activeCount(todos)
  list.replaceChildren(...shown(todos, filter).map(itemElement))
  $('.main').style.display = todos.length ? '' : 'none'
  $('.footer').style.display = todos.length ? '' : 'none'
  $<HTMLInputElement>('.toggle-all').checked = todos.length > 0 && left === 0
  $('.todo-count').innerHTML = `<strong>${left}</strong> ${itemsLeft(left)}`
  $('.clear-completed').style.display = todos.length > left ? '' : 'none'
  document.querySelectorAll<HTMLAnchorElement>('.filters a').forEach((a) => a.classList.toggle('selected', filterOf(a.getAttribute('href')!) === filter))
}

function finishEdit(input: HTMLInputElement) {
  const li = input.closest('li')!
  if (!li.classList.contains('editing')) return
  li.classList.remove('editing')
  change(ops.edit(todos, li.dataset.id!, input.value))
}

// As in the example: the new todo is taken on `change` (Enter, or leaving the field with text in it).
$('.new-todo').addEventListener('change', (e) => {
  const input = e.target as HTMLInputElement
  if (!input.value.trim()) return
  change(ops.add(todos, input.value))
  input.value = ''
})
$('.toggle-all').addEventListener('click', (e) => change(ops.toggleAll(todos, (e.target as HTMLInputElement).checked)))
$('.clear-completed').addEventListener('click', () => change(ops.clearCompleted(todos)))
delegate(list, '.toggle', 'click', (el) => change(ops.toggle(todos, idOf(el))))
delegate(list, '.destroy', 'click', (el) => change(ops.destroy(todos, idOf(el))))
delegate(list, 'label', 'dblclick', (label) => {
  const li = label.closest('li')!
  li.classList.add('editing')
  const input = document.createElement('input')
  input.className = 'edit'
  input.value = label.textContent ?? ''
  li.append(input)
  input.focus()
})
delegate(list, '.edit', 'keyup', (input, e) => {
  if ((e as KeyboardEvent).key === ENTER) finishEdit(input as HTMLInputElement)
  if ((e as KeyboardEvent).key === ESCAPE) (input.closest('li')!.classList.remove('editing'), input.remove())
})
delegate(list, '.edit', 'blur', (input) => finishEdit(input as HTMLInputElement), true)
addEventListener('hashchange', draw)
draw()

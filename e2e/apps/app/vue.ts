/** TodoMVC in Vue 3: a reactive list watched deeply into localStorage, the filter from the hash, render functions. */
import { computed, createApp, defineComponent, h, nextTick, ref, watch, withDirectives, vModelText, vModelCheckbox, type PropType } from 'vue'
import { ENTER, ESCAPE, FILTERS, activeCount, filterOf, itemsLeft, load, ops, save, shown, type Todo } from './todo-core'

const TodoItem = defineComponent({
  props: { todo: { type: Object as PropType<Todo>, required: true } },
  emits: ['remove', 'rename'],
  setup(props, { emit }) {
    const editing = ref(false)
    const text = ref('')
    const edit = ref<HTMLInputElement>()
    const start = async () => {
      text.value = props.todo.title
      editing.value = true
      await nextTick()
      edit.value?.focus()
    }
    const done = () => {
      if (!editing.value) return
      editing.value = false
      emit('rename', text.value)
    }
    return () => h('li', { class: { completed: props.todo.completed, editing: editing.value } }, [
      h('div', { class: 'view' }, [
        withDirectives(h('input', { class: 'toggle', type: 'checkbox', 'onUpdate:modelValue': (v: boolean) => (props.todo.completed = v) }), [[vModelCheckbox, props.todo.completed]]),
        h('label', { onDblclick: start }, props.todo.title),
        h('button', { class: 'destroy', onClick: () => emit('remove') }),
      ]),
      withDirectives(h('input', {
        class: 'edit',
        ref: edit,
        'onUpdate:modelValue': (v: string) => (text.value = v),
        onBlur: done,
        onKeyup: (e: KeyboardEvent) => {
          if (e.key === ENTER) done()
          if (e.key === ESCAPE) editing.value = false
        },
      }), [[vModelText, text.value]]),
    ])
  },
})

const App = defineComponent({
  setup() {
    const todos = ref<Todo[]>(load())
    const hash = ref(location.hash)
    const title = ref('')
    addEventListener('hashchange', () => (hash.value = location.hash))
    watch(todos, (list) => save(list), { deep: true })
    const filter = computed(() => filterOf(hash.value))
    const left = computed(() => activeCount(todos.value))
    const add = () => {
      todos.value = ops.add(todos.value, title.value)
      title.value = ''
    }
    return () => h('section', { class: 'todoapp' }, [
      h('header', { class: 'header' }, [
        h('h1', 'todos'),
        withDirectives(h('input', { class: 'new-todo', placeholder: 'What needs to be done?', autofocus: true, 'onUpdate:modelValue': (v: string) => (title.value = v), onKeyup: (e: KeyboardEvent) => e.key === ENTER && add() }), [[vModelText, title.value]]),
      ]),
      todos.value.length ? h('section', { class: 'main' }, [
        h('input', { id: 'toggle-all', class: 'toggle-all', type: 'checkbox', checked: left.value === 0, onChange: (e: Event) => (todos.value = ops.toggleAll(todos.value, (e.target as HTMLInputElement).checked)) }),
        h('label', { for: 'toggle-all' }, 'Mark all as complete'),
        h('ul', { class: 'todo-list' }, shown(todos.value, filter.value).map((todo) => h(TodoItem, {
          key: todo.id,
          todo: todos.value.find((t) => t.id === todo.id)!,
          onRemove: () => (todos.value = ops.destroy(todos.value, todo.id)),
          onRename: (text: string) => (todos.value = ops.edit(todos.value, todo.id, text)),
        }))),
      ]) : null,
      todos.value.length ? h('footer', { class: 'footer' }, [
        h('span', { class: 'todo-count' }, [h('strong', left.value), ` ${itemsLeft(left.value)}`]),
        h('ul', { class: 'filters' }, FILTERS.map((f) => h('li', [h('a', { href: f.href, class: { selected: f.filter === filter.value } }, f.label)]))),
        todos.value.length > left.value ? h('button', { class: 'clear-completed', onClick: () => (todos.value = ops.clearCompleted(todos.value)) }, 'Clear completed') : null,
      ]) : null,
    ])
  },
})

createApp(App).mount('#app')

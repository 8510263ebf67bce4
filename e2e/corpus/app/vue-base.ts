/** Vue 3 with no component library: render functions, the same widgets as plain DOM. */
import { defineComponent, h, ref, type Component, type PropType, type VNode } from 'vue'
import type { Widget } from '../types'
import { isNamedIcon, ICON_PATHS } from './icons'
import { runEffect, said, spec, status } from './spec'

export const iconOf = (icon?: string): VNode | string | null =>
  !icon ? null : isNamedIcon(icon) ? h('svg', { viewBox: '0 0 24 24', width: 18, height: 18, 'aria-hidden': 'true' }, [h('path', { fill: 'currentColor', d: ICON_PATHS[icon] })]) : icon

export const wanted = <K extends Widget['kind']>() => ({ w: { type: Object as PropType<Extract<Widget, { kind: K }>>, required: true as const } })

export function chatKey(w: Extract<Widget, { kind: 'chat' }>, e: KeyboardEvent, value: string): boolean {
  const ok = w.key === 'Enter' ? !e.shiftKey && !e.ctrlKey && !e.metaKey : e.ctrlKey || e.metaKey
  if (e.key !== 'Enter' || !ok) return false
  e.preventDefault()
  runEffect(w.effect, value)
  return true
}

const VButton = defineComponent({
  props: wanted<'button'>(),
  setup({ w }) {
    const open = ref(false)
    return () => {
      const c = w.confirm
      const button = h(w.element ?? 'button', { class: 'btn', 'aria-label': w.aria, title: w.title, ...(w.element ? { tabindex: 0 } : { type: 'button' }), onClick: () => (c ? (open.value = true) : runEffect(w.effect)) }, [iconOf(w.icon), w.label])
      if (!c || !open.value) return button
      return h('div', null, [button, h('div', { role: 'dialog', 'aria-modal': 'true', class: c.style }, [
        h('p', { class: 'dialog-title' }, c.title), c.content ? h('p', null, c.content) : null,
        h('div', { class: 'row' }, [h('button', { onClick: () => (open.value = false) }, c.cancel ?? said('Cancel', '取消')),
          h('button', { class: 'primary', onClick: () => ((open.value = false), runEffect(w.effect)) }, c.ok ?? said('OK', '确定'))])])])
    }
  },
})

export const VForm = defineComponent({
  props: { ...wanted<'form'>(), input: Function as PropType<(f: { name: string; kind?: string; value?: string }) => VNode>, submit: Object as PropType<VNode> },
  setup(props) {
    return () => {
      const w = props.w
      const onSubmit = w.onSubmit
        ? (e: Event) => {
            e.preventDefault()
            runEffect(w.onSubmit, ((e.target as HTMLFormElement).elements[0] as HTMLInputElement | undefined)?.value ?? '')
          }
        : undefined
      const fields = w.fields.map((f) => h('label', null, [f.label, ' ', props.input ? props.input(f) : f.kind === 'textarea' ? h('textarea', { name: f.name, id: f.name }) : h('input', { name: f.name, id: f.name, type: f.kind ?? 'text', value: f.value })]))
      const control = w.requestSubmit
        ? h('div', { class: 'btn', tabindex: 0, onClick: (e: Event) => (e.currentTarget as HTMLElement).closest('form')!.requestSubmit() }, [iconOf(w.submit.icon), w.submit.label])
        : (props.submit ?? h('button', { type: 'submit', class: 'btn' }, [iconOf(w.submit.icon), w.submit.label]))
      return h('form', { action: w.action ? spec.base + w.action.path : undefined, method: w.action?.method, onSubmit }, [...fields, control])
    }
  },
})

const VChat = defineComponent({
  props: wanted<'chat'>(),
  setup({ w }) {
    const value = ref('')
    const box = ref<HTMLElement | null>(null)
    const typed = (text: string) => ((value.value = text), w.typing && runEffect(w.typing, ''))
    const clear = () => ((value.value = ''), box.value && (box.value.textContent = ''))
    const onKeydown = (e: KeyboardEvent) => chatKey(w, e, value.value) && clear()
    return () => {
      const input = w.box === 'contenteditable'
        ? h('div', { id: 'chat', ref: box, role: 'textbox', contenteditable: 'true', 'aria-multiline': 'true', 'aria-label': w.aria ?? w.placeholder, class: 'box',
            onInput: (e: Event) => typed((e.target as HTMLElement).textContent ?? ''), onKeydown })
        : h('textarea', { id: 'chat', name: 'message', placeholder: w.placeholder, rows: 3, value: value.value, 'aria-label': w.aria,
            onInput: (e: Event) => typed((e.target as HTMLTextAreaElement).value), onKeydown })
      const send = w.sendLabel ? h('button', { type: 'button', class: 'btn', id: 'send', onClick: () => (runEffect(w.effect, value.value), clear()) }, w.sendLabel) : null
      return h('div', { class: 'chat' }, [input, send])
    }
  },
})

const VToggle = defineComponent({
  props: wanted<'toggle'>(),
  setup({ w }) {
    const on = ref(w.checked)
    const flip = () => ((on.value = !on.value), runEffect(w.effect))
    return () => (w.style === 'checkbox'
      ? h('label', null, [h('input', { type: 'checkbox', id: 'toggle', checked: on.value, onChange: flip }), ' ', w.label])
      : h('button', { type: 'button', role: 'switch', id: 'toggle', 'aria-checked': String(on.value), class: 'switch', onClick: flip }, w.label))
  },
})

const VLink = defineComponent({
  props: wanted<'link'>(),
  setup({ w }) {
    const open = ref(false)
    return () => (w.expands
      ? h('div', null, [h('a', { href: 'javascript:void(0)', onClick: () => (open.value = true) }, w.label), open.value ? h('p', null, w.expands) : null])
      : h('a', { href: spec.base + w.href }, w.label))
  },
})

const VTabs = defineComponent({
  props: wanted<'tabs'>(),
  setup({ w }) {
    const at = ref(0)
    return () => h('div', null, [h('div', { role: 'tablist' }, w.tabs.map((t, i) => h('button', { role: 'tab', type: 'button', 'aria-selected': String(i === at.value), onClick: () => ((at.value = i), runEffect(w.effect)) }, t.title))),
      h('div', { role: 'tabpanel' }, w.tabs[at.value]!.body)])
  },
})

const VChips = defineComponent({
  props: wanted<'chips'>(),
  setup({ w }) {
    const chips = ref([...w.chips])
    return () => h('div', { class: 'chips' }, chips.value.map((c) => h('span', { class: 'chip' }, [c, ' ',
      h('button', { type: 'button', 'aria-label': `${w.removeLabel} ${c}`, onClick: () => ((chips.value = chips.value.filter((x) => x !== c)), runEffect(w.effect)) }, '×')])))
  },
})

const VPicker = defineComponent({
  props: wanted<'datepicker'>(),
  setup({ w }) {
    const open = ref(false)
    const value = ref('')
    return () => h('div', { class: 'picker' }, [h('label', null, [w.label, ' ', h('input', { id: 'date', readonly: true, value: value.value, placeholder: w.label, onClick: () => (open.value = true) })]),
      open.value ? h('div', { class: 'popup' }, [...[12, 13, 14].map((d) => h('button', { type: 'button', onClick: () => (value.value = `2026-12-${d}`) }, String(d))),
        h('button', { type: 'button', class: 'primary', onClick: () => ((open.value = false), runEffect(w.effect)) }, w.ok ?? said('OK', '确定'))]) : null])
  },
})

const VList = defineComponent({
  props: wanted<'list'>(),
  setup({ w }) {
    const items = ref([...w.items])
    const sel = ref<string | null>(null)
    const onKeydown = (e: KeyboardEvent) => {
      if ((e.key === 'Delete' || e.key === 'Backspace') && sel.value) (runEffect(w.effect, sel.value), (items.value = items.value.filter((x) => x !== sel.value)), (sel.value = null))
    }
    return () => h('ul', { role: 'listbox', 'aria-label': said('Items', '列表'), onKeydown }, items.value.map((i) =>
      h('li', { role: 'option', tabindex: 0, 'aria-selected': String(i === sel.value), onClick: (e: Event) => ((sel.value = i), (e.currentTarget as HTMLElement).focus()) }, i)))
  },
})

const VPages = defineComponent({
  props: wanted<'pagination'>(),
  setup({ w }) {
    const at = ref(1)
    return () => h('nav', { 'aria-label': said('Pagination', '分页') }, Array.from({ length: w.pages }, (_, i) => i + 1).map((p) =>
      h('button', { type: 'button', 'aria-current': p === at.value ? 'page' : undefined, onClick: () => ((at.value = p), status(said(`Page ${p}`, `第 ${p} 页`)), runEffect(w.effect)) }, String(p))))
  },
})

const PLAIN: Record<Widget['kind'], Component> = {
  button: VButton,
  form: VForm,
  chat: VChat,
  select: defineComponent({
    props: wanted<'select'>(),
    setup: ({ w }) => () => h('label', null, [w.label, ' ', h('select', { id: 'setting', name: 'setting', onChange: (e: Event) => runEffect(w.effect, (e.target as HTMLSelectElement).value) },
      w.options.map((o) => h('option', { selected: o === w.value }, o)))]),
  }),
  toggle: VToggle,
  link: VLink,
  accordion: defineComponent({
    props: wanted<'accordion'>(),
    setup: ({ w }) => () => h('div', null, w.items.map((i) => h('details', null, [h('summary', null, i.title), h('p', null, i.body)]))),
  }),
  tabs: VTabs,
  pagination: VPages,
  chips: VChips,
  datepicker: VPicker,
  list: VList,
  frame: defineComponent({
    props: wanted<'frame'>(),
    setup: ({ w }) => () => h('iframe', { src: `${spec.base}/frame`, title: w.title, style: 'width:520px;height:140px;border:1px solid #ccc' }),
  }),
}

/** Every widget in plain Vue; a library passes the kinds it has components for. */
export function page(overrides: Partial<Record<Widget['kind'], Component>> = {}): Component {
  return defineComponent({ setup: () => () => h('div', null, spec.widgets.map((w) => h('section', null, [h(overrides[w.kind] ?? PLAIN[w.kind], { w })]))) })
}

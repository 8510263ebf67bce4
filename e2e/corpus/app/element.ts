/** Element Plus: ElButton, ElMessageBox.confirm (generic 确定), ElPopconfirm, ElSelect, ElSwitch, ElCollapse… */
import ElementPlus, {
  ElButton, ElCheckbox, ElCollapse, ElCollapseItem, ElDatePicker, ElInput, ElMessageBox, ElOption, ElPagination, ElPopconfirm, ElSelect, ElSwitch, ElTabPane, ElTabs, ElTag,
} from 'element-plus'
import 'element-plus/dist/index.css'
import en from 'element-plus/es/locale/lang/en'
import zhCn from 'element-plus/es/locale/lang/zh-cn'
import { createApp, defineComponent, h, ref } from 'vue'
import { chatKey, iconOf, page, VForm, wanted } from './vue-base'
import { runEffect, said, spec } from './spec'

const button = defineComponent({
  props: wanted<'button'>(),
  setup({ w }) {
    return () => {
      const c = w.confirm
      const attrs = { type: c ? 'danger' : 'primary', 'aria-label': w.aria, title: w.title }
      const content = () => [iconOf(w.icon), w.label]
      if (c?.style === 'popconfirm') {
        return h(ElPopconfirm, { title: c.title, confirmButtonText: c.ok ?? said('OK', '确定'), cancelButtonText: c.cancel ?? said('Cancel', '取消'), onConfirm: () => runEffect(w.effect) },
          { reference: () => h(ElButton, attrs, content) })
      }
      const onClick = () => {
        if (!c) return runEffect(w.effect)
        ElMessageBox.confirm(c.content ?? c.title, c.title, { confirmButtonText: c.ok ?? said('OK', '确定'), cancelButtonText: c.cancel ?? said('Cancel', '取消'), type: 'warning' })
          .then(() => runEffect(w.effect))
          .catch(() => undefined)
      }
      return h(ElButton, { ...attrs, onClick }, content)
    }
  },
})

const chat = defineComponent({
  props: wanted<'chat'>(),
  setup({ w }) {
    const value = ref('')
    return () => h(ElInput, { id: 'chat', name: 'message', type: 'textarea', rows: 3, placeholder: w.placeholder, modelValue: value.value,
      'onUpdate:modelValue': (v: string) => (value.value = v), onKeydown: (e: Event) => chatKey(w, e as KeyboardEvent, value.value) && (value.value = '') })
  },
})

const select = defineComponent({
  props: wanted<'select'>(),
  setup({ w }) {
    const value = ref(w.value)
    return () => h('label', null, [w.label, ' ', h(ElSelect, { id: 'setting', style: 'width: 200px', modelValue: value.value, 'onUpdate:modelValue': (v: string) => (value.value = v), onChange: (v: string) => runEffect(w.effect, v) },
      () => w.options.map((o) => h(ElOption, { label: o, value: o })))])
  },
})

const toggle = defineComponent({
  props: wanted<'toggle'>(),
  setup({ w }) {
    const on = ref(w.checked)
    const change = (v: unknown) => ((on.value = !!v), runEffect(w.effect))
    return () => (w.style === 'switch'
      ? h('label', null, [h(ElSwitch, { id: 'toggle', modelValue: on.value, 'onUpdate:modelValue': change }), ' ', w.label])
      : h(ElCheckbox, { id: 'toggle', modelValue: on.value, 'onUpdate:modelValue': change }, () => w.label))
  },
})

const form = defineComponent({
  props: wanted<'form'>(),
  setup({ w }) {
    return () => h(VForm, { w,
      input: (f: { name: string; kind?: string; value?: string }) => h(ElInput, { name: f.name, id: f.name, modelValue: undefined, type: f.kind === 'textarea' ? 'textarea' : 'text', placeholder: f.value }),
      submit: h(ElButton, { type: 'primary', nativeType: 'submit' }, () => [iconOf(w.submit.icon), w.submit.label]) })
  },
})

const overrides = {
  button,
  chat,
  select,
  toggle,
  form,
  accordion: defineComponent({
    props: wanted<'accordion'>(),
    setup: ({ w }) => () => h(ElCollapse, null, () => w.items.map((i, k) => h(ElCollapseItem, { title: i.title, name: k }, () => h('p', null, i.body)))),
  }),
  tabs: defineComponent({
    props: wanted<'tabs'>(),
    setup: ({ w }) => () => h(ElTabs, { modelValue: undefined, onTabChange: () => runEffect(w.effect) }, () => w.tabs.map((t, k) => h(ElTabPane, { label: t.title, name: String(k) }, () => t.body))),
  }),
  pagination: defineComponent({
    props: wanted<'pagination'>(),
    setup: ({ w }) => () => h(ElPagination, { total: w.pages * 10, layout: 'prev, pager, next', onCurrentChange: () => runEffect(w.effect) }),
  }),
  chips: defineComponent({
    props: wanted<'chips'>(),
    setup({ w }) {
      const chips = ref([...w.chips])
      return () => h('div', null, chips.value.map((c) => h(ElTag, { closable: true, 'aria-label': c, onClose: () => ((chips.value = chips.value.filter((x) => x !== c)), runEffect(w.effect)) }, () => c)))
    },
  }),
  datepicker: defineComponent({
    props: wanted<'datepicker'>(),
    setup({ w }) {
      const value = ref<Date | null>(null)
      return () => h('label', null, [w.label, ' ', h(ElDatePicker, { id: 'date', type: 'datetime', modelValue: value.value, 'onUpdate:modelValue': (v: Date) => (value.value = v), onChange: () => runEffect(w.effect) })])
    },
  }),
}

createApp(page(overrides)).use(ElementPlus, { locale: spec.lang === 'zh' ? zhCn : en }).mount('#app')

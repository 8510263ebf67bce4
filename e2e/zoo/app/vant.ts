/** Vant 4 (mobile, Chinese): a Picker in a Popup, a Checkbox and Button, an ActionSheet, a Switch in a cell, a form of Fields. */
import { ActionSheet, Button, Cell, CellGroup, Checkbox, Field, Picker, Popup, Switch } from 'vant'
import 'vant/lib/index.css'
import { createApp, defineComponent, h, ref, type Component } from 'vue'
import { CITIES, pick, post } from './zoo'

const submit = (values: () => unknown, label = '提交') => h(Button, { type: 'primary', block: true, style: 'margin-top:16px', onClick: () => post('/submit', values()) }, () => label)

const CityPicker = defineComponent(() => {
  const open = ref(false)
  const city = ref('')
  return () => h('div', { style: 'width:375px' }, [
    h(CellGroup, null, () => h(Field, { modelValue: city.value, isLink: true, readonly: true, label: '城市', placeholder: '选择城市', onClick: () => (open.value = true) })),
    h(Popup, { show: open.value, 'onUpdate:show': (v: boolean) => (open.value = v), position: 'bottom', teleport: 'body' }, () =>
      h(Picker, { title: '选择城市', columns: CITIES.map((c) => ({ text: c, value: c })), onConfirm: ({ selectedValues }: { selectedValues: string[] }) => ((city.value = selectedValues[0]!), (open.value = false)), onCancel: () => (open.value = false) })),
    submit(() => ({ city: city.value })),
  ])
})

const Agree = defineComponent(() => {
  const agreed = ref(false)
  return () => h('div', { style: 'width:375px' }, [
    h(CellGroup, null, () => [h(Field, { label: '手机号', placeholder: '请输入手机号', modelValue: '13800000000', readonly: true })]),
    h('div', { style: 'padding:12px' }, h(Checkbox, { modelValue: agreed.value, 'onUpdate:modelValue': (v: boolean) => (agreed.value = v) }, () => '我已阅读并同意用户协议')),
    h(Button, { type: 'primary', block: true, disabled: !agreed.value, onClick: () => post('/submit', { agreed: agreed.value }) }, () => '注册'),
  ])
})

const Sheet = defineComponent(() => {
  const open = ref(false)
  const way = ref('')
  const actions = [{ name: '顺丰速运' }, { name: '京东物流' }, { name: '到店自取' }]
  return () => h('div', { style: 'width:375px' }, [
    h(Cell, { title: '配送方式', value: way.value || '请选择', isLink: true, onClick: () => (open.value = true) }),
    h(ActionSheet, { show: open.value, 'onUpdate:show': (v: boolean) => (open.value = v), actions, cancelText: '取消', teleport: 'body', onSelect: (a: { name: string }) => ((way.value = a.name), (open.value = false)) }),
    submit(() => ({ delivery: way.value })),
  ])
})

const Switches = defineComponent(() => {
  const dark = ref(false)
  return () => h('div', { style: 'width:375px' }, [
    h(CellGroup, null, () => [h(Cell, { title: '深色模式' }, { 'right-icon': () => h(Switch, { modelValue: dark.value, 'onUpdate:modelValue': (v: boolean) => (dark.value = v), size: '20px' }) })]),
    submit(() => ({ dark: dark.value }), '保存设置'),
  ])
})

const Contact = defineComponent(() => {
  const name = ref('')
  const tel = ref('')
  return () => h('div', { style: 'width:375px' }, [
    h(CellGroup, null, () => [h(Field, { label: '收货人', placeholder: '请填写收货人姓名', modelValue: name.value, 'onUpdate:modelValue': (v: string) => (name.value = v) }),
      h(Field, { label: '联系电话', type: 'tel', placeholder: '请填写手机号', modelValue: tel.value, 'onUpdate:modelValue': (v: string) => (tel.value = v) })]),
    submit(() => ({ name: name.value, tel: tel.value }), '保存'),
  ])
})

const PAGES: Record<string, Component> = { 'vant-picker': CityPicker, 'vant-checkbox': Agree, 'vant-action-sheet': Sheet, 'vant-switch': Switches, 'vant-field': Contact }

createApp(pick(PAGES)).mount('#app')

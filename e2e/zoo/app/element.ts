/** Element Plus in Chinese: el-select, el-date-picker, el-upload, el-switch, a hover el-dropdown, checkboxes, a message box. */
import ElementPlus, {
  ElButton, ElCheckbox, ElCheckboxGroup, ElDatePicker, ElDropdown, ElDropdownItem, ElDropdownMenu, ElForm, ElFormItem, ElMessageBox, ElOption, ElSelect, ElSwitch, ElUpload,
} from 'element-plus'
import 'element-plus/dist/index.css'
import zhCn from 'element-plus/es/locale/lang/zh-cn'
import { createApp, defineComponent, h, ref, type Component } from 'vue'
import { CITIES, pick, post, zoo } from './zoo'

const submit = (values: () => unknown, label = '提交') => h(ElButton, { type: 'primary', onClick: () => post('/submit', values()) }, () => label)
const form = (...items: unknown[]) => h(ElForm, { labelWidth: '96px', style: { width: '420px' } }, () => items)

const Select = defineComponent(() => {
  const city = ref('')
  return () => form(h(ElFormItem, { label: '城市' }, () => h(ElSelect, { modelValue: city.value, 'onUpdate:modelValue': (v: string) => (city.value = v), placeholder: '请选择城市' },
    () => CITIES.map((c) => h(ElOption, { key: c, label: c, value: c })))), submit(() => ({ city: city.value })))
})

const Dates = defineComponent(() => {
  const date = ref('')
  return () => form(h(ElFormItem, { label: '出发日期' }, () => h(ElDatePicker, { modelValue: date.value, 'onUpdate:modelValue': (v: string) => (date.value = v), type: 'date',
    placeholder: '选择日期', valueFormat: 'YYYY-MM-DD', defaultValue: new Date(2026, 11, 1) })), submit(() => ({ date: date.value })))
})

const Upload = defineComponent(() => () =>
  form(h(ElFormItem, { label: '身份证照片' }, () => h(ElUpload, { action: `${zoo.base}/upload`, name: 'file' }, () => h(ElButton, { type: 'primary' }, () => '点击上传')))))

const Switch = defineComponent(() => {
  const renew = ref(false)
  const invoice = ref(true)
  return () => form(
    h(ElFormItem, { label: '自动续费' }, () => h(ElSwitch, { modelValue: renew.value, 'onUpdate:modelValue': (v: unknown) => (renew.value = Boolean(v)) })),
    h(ElFormItem, { label: '电子发票' }, () => h(ElSwitch, { modelValue: invoice.value, 'onUpdate:modelValue': (v: unknown) => (invoice.value = Boolean(v)) })),
    submit(() => ({ renew: renew.value, invoice: invoice.value }), '保存'))
})

const Dropdown = defineComponent(() => () =>
  h('div', { style: 'display:flex;gap:24px' }, [h('span', null, '库存清单'),
    h(ElDropdown, { onCommand: (c: string) => post(`/${c}`, { list: '库存清单' }) }, {
      default: () => h('span', { class: 'el-dropdown-link', style: 'cursor:pointer;color:#409eff' }, '更多'),
      dropdown: () => h(ElDropdownMenu, null, () => [h(ElDropdownItem, { command: 'export' }, () => '导出'), h(ElDropdownItem, { command: 'archive' }, () => '归档')]),
    })]))

const Checkboxes = defineComponent(() => {
  const days = ref<string[]>([])
  return () => form(h(ElFormItem, { label: '上课时间' }, () => h(ElCheckboxGroup, { modelValue: days.value, 'onUpdate:modelValue': (v: unknown) => (days.value = v as string[]) },
    () => ['周一', '周二', '周三', '周四', '周五'].map((d) => h(ElCheckbox, { key: d, value: d, label: d })))), submit(() => ({ days: days.value })))
})

const MessageBox = defineComponent(() => {
  const cancel = () => ElMessageBox.confirm('取消后订单无法恢复，确定取消吗？', '提示', { confirmButtonText: '确定', cancelButtonText: '再想想', type: 'warning' })
    .then(() => post('/order/cancel', { order: 'A1024' })).catch(() => undefined)
  return () => h('div', null, [h('p', null, '订单 A1024 · 待发货'), h(ElButton, { type: 'danger', onClick: cancel }, () => '取消订单')])
})

const PAGES: Record<string, Component> = {
  'el-select': Select, 'el-date': Dates, 'el-upload': Upload, 'el-switch': Switch, 'el-hover-menu': Dropdown, 'el-checkbox': Checkboxes, 'el-message-box': MessageBox,
}

createApp(pick(PAGES)).use(ElementPlus, { locale: zhCn }).mount('#app')

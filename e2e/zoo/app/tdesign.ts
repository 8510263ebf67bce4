/** TDesign (React, Chinese by default): Select, Radio, inputs, Switch, a Dialog. */
import { Button, Dialog, Form, Input, Radio, Select, Switch, Textarea } from 'tdesign-react'
import 'tdesign-react/es/style/index.css'
import { createElement as h, useState, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import { CITIES, pick, post } from './zoo'

const submit = (values: () => unknown, label = '提交') => h(Button, { theme: 'primary', onClick: () => post('/submit', values()) }, label)
const box = (...children: ReactNode[]) => h('div', { style: { width: 380, display: 'flex', flexDirection: 'column', gap: 16 } }, ...children)
const row = (label: string, control: ReactNode) => h(Form.FormItem, { label }, control)

function CitySelect() {
  const [city, setCity] = useState<string>()
  return box(h(Form, null, row('收货城市', h(Select, { placeholder: '请选择', value: city, onChange: (v: unknown) => setCity(String(v)), options: CITIES.map((c) => ({ label: c, value: c })) }))), submit(() => ({ city })))
}

function Radios() {
  const [pay, setPay] = useState('微信支付')
  return box(h(Form, null, row('支付方式', h(Radio.Group, { value: pay, onChange: (v: unknown) => setPay(String(v)) }, ['微信支付', '支付宝', '银行卡'].map((p) => h(Radio, { key: p, value: p }, p))))), submit(() => ({ pay })))
}

function Feedback() {
  const [title, setTitle] = useState('')
  const [body, setBody] = useState('')
  return box(h(Form, null, row('标题', h(Input, { placeholder: '一句话概括', value: title, onChange: (v: string) => setTitle(v) })), row('问题描述', h(Textarea, { placeholder: '请详细描述', value: body, onChange: (v: string) => setBody(v) }))),
    submit(() => ({ title, body }), '提交反馈'))
}

function Switches() {
  const [on, setOn] = useState(false)
  return box(h(Form, null, row('消息免打扰', h(Switch, { value: on, onChange: (v: unknown) => setOn(Boolean(v)) }))), submit(() => ({ quiet: on }), '保存'))
}

function Confirm() {
  const [open, setOpen] = useState(false)
  return h('div', null, h('p', null, '会员自动续费 · 每月 15 元'), h(Button, { theme: 'danger', onClick: () => setOpen(true) }, '退订会员'),
    h(Dialog, { header: '确认退订', visible: open, confirmBtn: '确认退订', cancelBtn: '暂不', onConfirm: () => (setOpen(false), post('/unsubscribe', { plan: 'monthly' })), onClose: () => setOpen(false) }, '退订后将不再自动续费。'))
}

const PAGES: Record<string, () => ReactNode> = { 'td-select': CitySelect, 'td-radio': Radios, 'td-form': Feedback, 'td-switch': Switches, 'td-dialog': Confirm }

createRoot(document.getElementById('app')!).render(h(pick(PAGES)))

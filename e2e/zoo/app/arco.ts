/** Arco Design (React, Chinese): Select, DatePicker, Switch, a form of inputs, a Popconfirm. */
import { Button, ConfigProvider, DatePicker, Form, Input, Popconfirm, Select, Switch } from '@arco-design/web-react'
import '@arco-design/web-react/dist/css/arco.css'
import zhCN from '@arco-design/web-react/es/locale/zh-CN'
import { createElement as h, useState, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import { CITIES, pick, post } from './zoo'

const submit = (values: () => unknown, label = '提交') => h(Button, { type: 'primary', onClick: () => post('/submit', values()) }, label)
const box = (...children: ReactNode[]) => h(Form, { layout: 'vertical', style: { width: 360 } }, ...children)

function CitySelect() {
  const [city, setCity] = useState<string>()
  return box(h(Form.Item, { label: '所在城市' }, h(Select, { placeholder: '请选择城市', value: city, onChange: setCity, options: CITIES })), submit(() => ({ city })))
}

function Dates() {
  const [date, setDate] = useState('')
  return box(h(Form.Item, { label: '预约日期' }, h(DatePicker, { placeholder: '请选择日期', defaultPickerValue: '2026-12-01', onChange: (s: string) => setDate(s), style: { width: 240 } })), submit(() => ({ date })))
}

function Switches() {
  const [night, setNight] = useState(false)
  return box(h(Form.Item, { label: '夜间模式', field: 'night' }, h(Switch, { checked: night, onChange: setNight })), submit(() => ({ night }), '保存'))
}

function Profile() {
  const [form] = Form.useForm()
  return h(Form, { form, layout: 'vertical', style: { width: 360 }, onSubmit: (v: unknown) => post('/submit', v) },
    h(Form.Item, { label: '昵称', field: 'nick' }, h(Input, { placeholder: '请输入昵称' })),
    h(Form.Item, { label: '个人简介', field: 'bio' }, h(Input.TextArea, { placeholder: '介绍一下自己' })),
    h(Button, { type: 'primary', htmlType: 'submit' }, '保存资料'))
}

function Confirm() {
  return h('div', null, h('p', null, '草稿：年终总结'),
    h(Popconfirm, { title: '确定要发布这篇文章吗？', okText: '发布', cancelText: '取消', onOk: () => post('/publish', { draft: '年终总结' }) }, h(Button, { type: 'primary' }, '发布文章')))
}

const PAGES: Record<string, () => ReactNode> = { 'arco-select': CitySelect, 'arco-date': Dates, 'arco-switch': Switches, 'arco-form': Profile, 'arco-popconfirm': Confirm }

createRoot(document.getElementById('app')!).render(h(ConfigProvider, { locale: zhCN }, h(pick(PAGES))))

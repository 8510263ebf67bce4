/** antd 5: its Button (which spaces two CJK characters: 删 除), App modal, Popconfirm, Select, Switch, Collapse… */
import { App, Button, Checkbox, Collapse, ConfigProvider, DatePicker, Input, Pagination, Popconfirm, Select, Switch, Tabs, Tag } from 'antd'
import enUS from 'antd/es/locale/en_US'
import zhCN from 'antd/es/locale/zh_CN'
import { createElement as h, useState, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import type { Widget } from '../types'
import { chatKey, iconOf, PlainForm, PlainWidget, widgets } from './react-base'
import { runEffect, spec } from './spec'

function AntButton({ w }: { w: Extract<Widget, { kind: 'button' }> }) {
  const { modal } = App.useApp()
  const c = w.confirm
  const props = { icon: iconOf(w.icon), 'aria-label': w.aria, title: w.title, danger: !!c }
  if (c?.style === 'popconfirm') {
    return h(Popconfirm, { title: c.title, description: c.content, okText: c.ok, cancelText: c.cancel, onConfirm: () => runEffect(w.effect) }, h(Button, props, w.label || undefined))
  }
  const onClick = () => (c ? modal.confirm({ title: c.title, content: c.content, okText: c.ok, cancelText: c.cancel, onOk: () => runEffect(w.effect) }) : runEffect(w.effect))
  return h(Button, { ...props, type: 'primary', onClick }, w.label || undefined)
}

function AntChat({ w }: { w: Extract<Widget, { kind: 'chat' }> }) {
  const [value, setValue] = useState('')
  const area = h(Input.TextArea, { id: 'chat', name: 'message', placeholder: w.placeholder, value, rows: 3, 'aria-label': w.aria,
    onChange: (e: { target: { value: string } }) => (setValue(e.target.value), w.typing && runEffect(w.typing, '')), onKeyDown: (e: Parameters<typeof chatKey>[1]) => chatKey(w, e, value) && setValue('') })
  if (!w.sendLabel) return area
  return h('div', null, area, h(Button, { type: 'primary', id: 'send', onClick: () => (runEffect(w.effect, value), setValue('')) }, w.sendLabel))
}

function AntChips({ w }: { w: Extract<Widget, { kind: 'chips' }> }) {
  return h('div', null, w.chips.map((c) => h(Tag, { key: c, closable: true, closeIcon: h('span', { 'aria-label': `${w.removeLabel} ${c}` }, '×'), onClose: () => runEffect(w.effect) }, c)))
}

function Widget({ w }: { w: Widget }): ReactNode {
  switch (w.kind) {
    case 'button':
      return h(AntButton, { w })
    case 'form':
      return h(PlainForm, {
        w,
        input: (f) => (f.kind === 'textarea' ? h(Input.TextArea, { name: f.name, id: f.name }) : h(Input, { name: f.name, id: f.name, defaultValue: f.value, type: f.kind === 'search' ? 'search' : f.kind })),
        submit: h(Button, { type: 'primary', htmlType: 'submit', icon: iconOf(w.submit.icon) }, w.submit.label || undefined),
      })
    case 'chat':
      return h(AntChat, { w })
    case 'select':
      return h('label', null, w.label, ' ', h(Select, { id: 'setting', style: { width: 200 }, defaultValue: w.value, options: w.options.map((o) => ({ value: o, label: o })), onChange: (v: string) => runEffect(w.effect, v) }))
    case 'toggle':
      return w.style === 'switch'
        ? h('label', null, h(Switch, { id: 'toggle', defaultChecked: w.checked, onChange: () => runEffect(w.effect) }), ' ', w.label)
        : h(Checkbox, { id: 'toggle', defaultChecked: w.checked, onChange: () => runEffect(w.effect) }, w.label)
    case 'accordion':
      return h(Collapse, { items: w.items.map((i, k) => ({ key: String(k), label: i.title, children: h('p', null, i.body) })) })
    case 'tabs':
      return h(Tabs, { items: w.tabs.map((t, k) => ({ key: String(k), label: t.title, children: t.body })), onChange: () => runEffect(w.effect) })
    case 'pagination':
      return h(Pagination, { total: w.pages * 10, onChange: () => runEffect(w.effect) })
    case 'chips':
      return h(AntChips, { w })
    case 'datepicker':
      return h('label', null, w.label, ' ', h(DatePicker, { id: 'date', showTime: true, onOk: () => runEffect(w.effect) }))
    default:
      return h(PlainWidget, { w })
  }
}

createRoot(document.getElementById('app')!).render(
  h(ConfigProvider, { locale: spec.lang === 'zh' ? zhCN : enUS }, h(App, null, widgets().map((w, i) => h('section', { key: i }, h(Widget, { w }))))),
)

/** Radix primitives, unstyled as a design system would wrap them: Select, DropdownMenu, Dialog, Switch. */
import * as Dialog from '@radix-ui/react-dialog'
import * as Menu from '@radix-ui/react-dropdown-menu'
import * as Select from '@radix-ui/react-select'
import * as Switch from '@radix-ui/react-switch'
import { createElement as h, useState, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import { pick, post } from './zoo'

const CSS = `.trigger{display:inline-flex;gap:8px;padding:6px 12px;border:1px solid #999;border-radius:6px;background:#fff}.content{background:#fff;border:1px solid #ccc;border-radius:6px;padding:4px;box-shadow:0 6px 20px #0003}
.item{padding:6px 24px;cursor:default;outline:none}.item[data-highlighted]{background:#def}.switch{width:42px;height:24px;border-radius:12px;background:#bbb;border:0;position:relative}.switch[data-state=checked]{background:#2a7}
.thumb{display:block;width:20px;height:20px;border-radius:10px;background:#fff;transform:translateX(2px);transition:transform 100ms}.thumb[data-state=checked]{transform:translateX(20px)}
.overlay{position:fixed;inset:0;background:#0005}.dialog{position:fixed;top:30%;left:50%;transform:translateX(-50%);background:#fff;padding:20px;border-radius:8px;width:360px}`
document.head.append(Object.assign(document.createElement('style'), { textContent: CSS }))

const save = (values: () => unknown, label = 'Save') => h('button', { type: 'button', className: 'trigger', onClick: () => post('/submit', values()) }, label)

function Fruit() {
  const [fruit, setFruit] = useState<string>()
  return h('div', null, h('p', null, 'Pick the fruit for this week\'s box.'),
    h(Select.Root, { value: fruit, onValueChange: setFruit },
      h(Select.Trigger, { className: 'trigger', 'aria-label': 'Fruit' }, h(Select.Value, { placeholder: 'Select a fruit…' }), h(Select.Icon, null, '▾')),
      h(Select.Portal, null, h(Select.Content, { className: 'content', position: 'popper', sideOffset: 4 }, h(Select.Viewport, null,
        ['Apple', 'Banana', 'Blueberry', 'Grapes', 'Pineapple'].map((f) => h(Select.Item, { key: f, value: f.toLowerCase(), className: 'item' }, h(Select.ItemText, null, f))))))),
    ' ', save(() => ({ fruit })))
}

function Actions() {
  return h('div', null, h('span', null, 'Invoice #4821 '),
    h(Menu.Root, null, h(Menu.Trigger, { className: 'trigger' }, 'Options'),
      h(Menu.Portal, null, h(Menu.Content, { className: 'content', sideOffset: 4 },
        ['Duplicate', 'Export as PDF', 'Archive'].map((a) => h(Menu.Item, { key: a, className: 'item', onSelect: () => post('/action', { action: a }) }, a))))))
}

function Profile() {
  const [open, setOpen] = useState(false)
  const [name, setName] = useState('Pedro Duarte')
  return h(Dialog.Root, { open, onOpenChange: setOpen }, h(Dialog.Trigger, { className: 'trigger' }, 'Edit profile'),
    h(Dialog.Portal, null, h(Dialog.Overlay, { className: 'overlay' }), h(Dialog.Content, { className: 'dialog' },
      h(Dialog.Title, null, 'Edit profile'), h(Dialog.Description, null, 'Make changes to your profile here.'),
      h('label', null, 'Name ', h('input', { id: 'name', value: name, onChange: (e: { target: { value: string } }) => setName(e.target.value) })),
      h('p', null, h('button', { type: 'button', className: 'trigger', onClick: () => (post('/submit', { name }), setOpen(false)) }, 'Save changes')),
      h(Dialog.Close, { 'aria-label': 'Close', className: 'trigger' }, '×'))))
}

function Airplane() {
  const [on, setOn] = useState(false)
  const [wifi, setWifi] = useState(true)
  const row = (id: string, label: string, checked: boolean, set: (v: boolean) => void) =>
    h('p', { style: { display: 'flex', gap: 12, alignItems: 'center' } }, h('label', { htmlFor: id }, label), h(Switch.Root, { id, className: 'switch', checked, onCheckedChange: set }, h(Switch.Thumb, { className: 'thumb' })))
  return h('div', null, row('airplane', 'Airplane mode', on, setOn), row('wifi', 'Wi-Fi', wifi, setWifi), save(() => ({ airplane: on, wifi })))
}

const PAGES: Record<string, () => ReactNode> = { 'radix-select': Fruit, 'radix-menu': Actions, 'radix-dialog': Profile, 'radix-switch': Airplane }

createRoot(document.getElementById('app')!).render(h(pick(PAGES)))

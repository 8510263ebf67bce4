/** React with no component library: the same widgets as plain DOM, built with state and synthetic events. */
import { createElement as h, Fragment, useRef, useState, type ReactNode } from 'react'
import type { Widget } from '../types'
import { isNamedIcon, ICON_PATHS } from './icons'
import { runEffect, said, spec, status } from './spec'

export const iconOf = (icon?: string): ReactNode =>
  !icon ? null : isNamedIcon(icon) ? h('svg', { viewBox: '0 0 24 24', width: 18, height: 18, 'aria-hidden': true }, h('path', { fill: 'currentColor', d: ICON_PATHS[icon] })) : icon

type Props<K extends Widget['kind']> = { w: Extract<Widget, { kind: K }> }

function PlainButton({ w }: Props<'button'>) {
  const [open, setOpen] = useState(false)
  const click = () => (w.confirm ? setOpen(true) : runEffect(w.effect))
  const tag = w.element ?? 'button'
  const button = h(tag, { className: 'btn', 'aria-label': w.aria, title: w.title, onClick: click, ...(w.element ? { tabIndex: 0 } : { type: 'button' }) }, iconOf(w.icon), w.label)
  if (!open || !w.confirm) return button
  const c = w.confirm
  return h(Fragment, null, button, h('div', { role: 'dialog', 'aria-modal': true, className: c.style },
    h('p', { className: 'dialog-title' }, c.title), c.content ? h('p', null, c.content) : null,
    h('div', { className: 'row' }, h('button', { onClick: () => setOpen(false) }, c.cancel ?? said('Cancel', '取消')),
      h('button', { className: 'primary', onClick: () => (setOpen(false), runEffect(w.effect)) }, c.ok ?? said('OK', '确定')))))
}

export function PlainForm({ w, input, submit }: Props<'form'> & { input?: (f: Extract<Widget, { kind: 'form' }>['fields'][number]) => ReactNode; submit?: ReactNode }) {
  const onSubmit = w.onSubmit
    ? (e: { preventDefault(): void; currentTarget: HTMLFormElement }) => {
        e.preventDefault()
        runEffect(w.onSubmit, (e.currentTarget.elements[0] as HTMLInputElement | undefined)?.value ?? '')
      }
    : undefined
  const fields = w.fields.map((f) =>
    h('label', { key: f.name }, f.label, ' ', input ? input(f) : f.kind === 'textarea' ? h('textarea', { name: f.name, id: f.name }) : h('input', { name: f.name, id: f.name, type: f.kind ?? 'text', defaultValue: f.value })),
  )
  const control = w.requestSubmit
    ? h('div', { className: 'btn', tabIndex: 0, onClick: (e: { currentTarget: HTMLElement }) => e.currentTarget.closest('form')!.requestSubmit() }, iconOf(w.submit.icon), w.submit.label)
    : (submit ?? h('button', { type: 'submit', className: 'btn' }, iconOf(w.submit.icon), w.submit.label))
  return h('form', { action: w.action ? spec.base + w.action.path : undefined, method: w.action?.method, onSubmit }, ...fields, control)
}

export function chatKey(w: Extract<Widget, { kind: 'chat' }>, e: { key: string; shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; preventDefault(): void }, value: string): boolean {
  const wanted = w.key === 'Enter' ? !e.shiftKey && !e.ctrlKey && !e.metaKey : e.ctrlKey || e.metaKey
  if (e.key !== 'Enter' || !wanted) return false
  e.preventDefault()
  runEffect(w.effect, value)
  return true
}

function Chat({ w }: Props<'chat'>) {
  const [value, setValue] = useState('')
  const box = useRef<HTMLDivElement>(null)
  const typed = (text: string) => (setValue(text), w.typing && runEffect(w.typing, ''))
  const clear = () => (setValue(''), box.current && (box.current.textContent = ''))
  const onKeyDown = (e: Parameters<typeof chatKey>[1]) => chatKey(w, e, value) && clear()
  const input = w.box === 'contenteditable'
    ? h('div', { id: 'chat', ref: box, role: 'textbox', contentEditable: true, suppressContentEditableWarning: true, 'aria-multiline': true, 'aria-label': w.aria ?? w.placeholder, className: 'box',
        onInput: (e: { currentTarget: HTMLDivElement }) => typed(e.currentTarget.textContent ?? ''), onKeyDown })
    : h('textarea', { id: 'chat', name: 'message', placeholder: w.placeholder, value, rows: 3, 'aria-label': w.aria, onChange: (e: { target: HTMLTextAreaElement }) => typed(e.target.value), onKeyDown })
  const send = w.sendLabel ? h('button', { type: 'button', className: 'btn', id: 'send', onClick: () => (runEffect(w.effect, value), clear()) }, w.sendLabel) : null
  return h('div', { className: 'chat' }, input, send)
}

function Toggle({ w }: Props<'toggle'>) {
  const [on, setOn] = useState(w.checked)
  const flip = () => (setOn(!on), runEffect(w.effect))
  if (w.style === 'checkbox') return h('label', null, h('input', { type: 'checkbox', id: 'toggle', checked: on, onChange: flip }), ' ', w.label)
  return h('button', { type: 'button', role: 'switch', id: 'toggle', 'aria-checked': on, className: 'switch', onClick: flip }, w.label)
}

function Link({ w }: Props<'link'>) {
  const [open, setOpen] = useState(false)
  if (!w.expands) return h('a', { href: spec.base + w.href }, w.label)
  return h('div', null, h('a', { href: 'javascript:void(0)', onClick: () => setOpen(true) }, w.label), open ? h('p', null, w.expands) : null)
}

function Tabs({ w }: Props<'tabs'>) {
  const [at, setAt] = useState(0)
  return h('div', null, h('div', { role: 'tablist' }, w.tabs.map((t, i) =>
    h('button', { key: i, role: 'tab', type: 'button', 'aria-selected': i === at, onClick: () => (setAt(i), runEffect(w.effect)) }, t.title))),
    h('div', { role: 'tabpanel' }, w.tabs[at]!.body))
}

function Chips({ w }: Props<'chips'>) {
  const [chips, setChips] = useState(w.chips)
  return h('div', { className: 'chips' }, chips.map((c) => h('span', { key: c, className: 'chip' }, c, ' ',
    h('button', { type: 'button', 'aria-label': `${w.removeLabel} ${c}`, onClick: () => (setChips(chips.filter((x) => x !== c)), runEffect(w.effect)) }, '×'))))
}

function DatePicker({ w }: Props<'datepicker'>) {
  const [open, setOpen] = useState(false)
  const [value, setValue] = useState('')
  return h('div', { className: 'picker' }, h('label', null, w.label, ' ', h('input', { id: 'date', readOnly: true, value, placeholder: w.label, onClick: () => setOpen(true) })),
    open ? h('div', { className: 'popup' }, [12, 13, 14].map((d) => h('button', { key: d, type: 'button', onClick: () => setValue(`2026-12-${d}`) }, String(d))),
      h('button', { type: 'button', className: 'primary', onClick: () => (setOpen(false), runEffect(w.effect)) }, w.ok ?? said('OK', '确定'))) : null)
}

function List({ w }: Props<'list'>) {
  const [items, setItems] = useState(w.items)
  const [sel, setSel] = useState<string | null>(null)
  const onKeyDown = (e: { key: string }) => {
    if ((e.key === 'Delete' || e.key === 'Backspace') && sel) (runEffect(w.effect, sel), setItems(items.filter((x) => x !== sel)), setSel(null))
  }
  return h('ul', { role: 'listbox', 'aria-label': said('Items', '列表'), onKeyDown }, items.map((i) =>
    h('li', { key: i, role: 'option', tabIndex: 0, 'aria-selected': i === sel, onClick: (e: { currentTarget: HTMLElement }) => (setSel(i), e.currentTarget.focus()) }, i)))
}

function Pagination({ w }: Props<'pagination'>) {
  const [at, setAt] = useState(1)
  return h('nav', { 'aria-label': said('Pagination', '分页') }, Array.from({ length: w.pages }, (_, i) => i + 1).map((p) =>
    h('button', { key: p, type: 'button', 'aria-current': p === at ? 'page' : undefined, onClick: () => (setAt(p), status(said(`Page ${p}`, `第 ${p} 页`)), runEffect(w.effect)) }, String(p))))
}

/** Every widget in plain React; a library overrides the kinds it has components for. */
export function PlainWidget({ w }: { w: Widget }): ReactNode {
  switch (w.kind) {
    case 'button':
      return h(PlainButton, { w })
    case 'form':
      return h(PlainForm, { w })
    case 'chat':
      return h(Chat, { w })
    case 'select':
      return h('label', null, w.label, ' ', h('select', { id: 'setting', name: 'setting', defaultValue: w.value, onChange: (e: { target: HTMLSelectElement }) => runEffect(w.effect, e.target.value) },
        w.options.map((o) => h('option', { key: o }, o))))
    case 'toggle':
      return h(Toggle, { w })
    case 'link':
      return h(Link, { w })
    case 'accordion':
      return h('div', null, w.items.map((i) => h('details', { key: i.title }, h('summary', null, i.title), h('p', null, i.body))))
    case 'tabs':
      return h(Tabs, { w })
    case 'pagination':
      return h(Pagination, { w })
    case 'chips':
      return h(Chips, { w })
    case 'datepicker':
      return h(DatePicker, { w })
    case 'list':
      return h(List, { w })
    case 'frame':
      return h('iframe', { src: `${spec.base}/frame`, title: w.title, style: { width: 520, height: 140, border: '1px solid #ccc' } })
  }
}

export const widgets = () => spec.widgets

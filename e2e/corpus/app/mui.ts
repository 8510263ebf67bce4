/** MUI: Button and IconButton, a Dialog whose actions are a generic OK, Select, Switch, Accordion, Tabs, Chip. */
import {
  Accordion, AccordionDetails, AccordionSummary, Button, Checkbox, Chip, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel,
  IconButton, MenuItem, Pagination, Select, Switch, Tab, Tabs, TextField,
} from '@mui/material'
import { createElement as h, Fragment, useState, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import type { Widget } from '../types'
import { chatKey, iconOf, PlainForm, PlainWidget, widgets } from './react-base'
import { runEffect, said } from './spec'

function MuiButton({ w }: { w: Extract<Widget, { kind: 'button' }> }) {
  const [open, setOpen] = useState(false)
  const click = () => (w.confirm ? setOpen(true) : runEffect(w.effect))
  const button = w.label
    ? h(Button, { variant: 'contained', startIcon: iconOf(w.icon), 'aria-label': w.aria, title: w.title, onClick: click }, w.label)
    : h(IconButton, { 'aria-label': w.aria, title: w.title, onClick: click }, iconOf(w.icon))
  const c = w.confirm
  if (!c) return button
  return h(Fragment, null, button, h(Dialog, { open, onClose: () => setOpen(false) },
    h(DialogTitle, null, c.title), c.content ? h(DialogContent, null, c.content) : null,
    h(DialogActions, null, h(Button, { onClick: () => setOpen(false) }, c.cancel ?? said('Cancel', '取消')),
      h(Button, { onClick: () => (setOpen(false), runEffect(w.effect)) }, c.ok ?? said('OK', '确定')))))
}

function MuiChat({ w }: { w: Extract<Widget, { kind: 'chat' }> }) {
  const [value, setValue] = useState('')
  return h(TextField, { id: 'chat', name: 'message', multiline: true, minRows: 3, placeholder: w.placeholder, value,
    onChange: (e: { target: { value: string } }) => setValue(e.target.value), onKeyDown: (e: Parameters<typeof chatKey>[1]) => chatKey(w, e, value) && setValue('') })
}

function MuiSelect({ w }: { w: Extract<Widget, { kind: 'select' }> }) {
  const [value, setValue] = useState(w.value)
  return h(Select, { id: 'setting', label: w.label, 'aria-label': w.label, value, onChange: (e: { target: { value: unknown } }) => (setValue(String(e.target.value)), runEffect(w.effect, String(e.target.value))) },
    w.options.map((o) => h(MenuItem, { key: o, value: o }, o)))
}

function MuiTabs({ w }: { w: Extract<Widget, { kind: 'tabs' }> }) {
  const [at, setAt] = useState(0)
  return h('div', null, h(Tabs, { value: at, onChange: (_: unknown, v: number) => (setAt(v), runEffect(w.effect)) }, w.tabs.map((t, i) => h(Tab, { key: i, label: t.title }))), h('div', { role: 'tabpanel' }, w.tabs[at]!.body))
}

function MuiChips({ w }: { w: Extract<Widget, { kind: 'chips' }> }) {
  const [chips, setChips] = useState(w.chips)
  return h('div', null, chips.map((c) => h(Chip, { key: c, label: c, onDelete: () => (setChips(chips.filter((x) => x !== c)), runEffect(w.effect)),
    deleteIcon: h('button', { type: 'button', 'aria-label': `${w.removeLabel} ${c}` }, '×') })))
}

function Widget({ w }: { w: Widget }): ReactNode {
  switch (w.kind) {
    case 'button':
      return h(MuiButton, { w })
    case 'form':
      return h(PlainForm, {
        w,
        input: (f) => h(TextField, { name: f.name, id: f.name, label: undefined, defaultValue: f.value, type: f.kind === 'search' ? 'search' : f.kind === 'email' ? 'email' : 'text', multiline: f.kind === 'textarea', size: 'small' }),
        submit: h(Button, { type: 'submit', variant: 'contained', startIcon: iconOf(w.submit.icon) }, w.submit.label),
      })
    case 'chat':
      return h(MuiChat, { w })
    case 'select':
      return h(MuiSelect, { w })
    case 'toggle':
      return h(FormControlLabel, { label: w.label, control: h(w.style === 'switch' ? Switch : Checkbox, { id: 'toggle', defaultChecked: w.checked, onChange: () => runEffect(w.effect) }) })
    case 'accordion':
      return h('div', null, w.items.map((i) => h(Accordion, { key: i.title }, h(AccordionSummary, null, i.title), h(AccordionDetails, null, i.body))))
    case 'tabs':
      return h(MuiTabs, { w })
    case 'pagination':
      return h(Pagination, { count: w.pages, onChange: () => runEffect(w.effect) })
    case 'chips':
      return h(MuiChips, { w })
    default:
      return h(PlainWidget, { w })
  }
}

createRoot(document.getElementById('app')!).render(h('div', null, widgets().map((w, i) => h('section', { key: i }, h(Widget, { w })))))

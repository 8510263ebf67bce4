/** Headless UI v2: Listbox, Combobox and Switch, each in a Field with its Label, as its docs build them. */
import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions, Field, Label, Listbox, ListboxButton, ListboxOption, ListboxOptions, Switch } from '@headlessui/react'
import { createElement as h, useState, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import { pick, post } from './zoo'

const CSS = `.btn{padding:6px 12px;border:1px solid #999;border-radius:6px;background:#fff;min-width:180px;text-align:left}.opts{border:1px solid #ccc;background:#fff;padding:4px;margin:0;list-style:none;width:200px;box-shadow:0 6px 20px #0003}
.opt{padding:6px 12px;cursor:default}.opt[data-focus]{background:#def}.sw{width:44px;height:24px;border-radius:12px;background:#bbb;border:0}.sw[data-checked]{background:#46f}
.field{display:flex;gap:12px;align-items:center;margin:12px 0}`
document.head.append(Object.assign(document.createElement('style'), { textContent: CSS }))

const PEOPLE = ['Wade Cooper', 'Arlene Mccoy', 'Devon Webb', 'Tom Cook', 'Tanya Fox']
const save = (values: () => unknown) => h('button', { type: 'button', className: 'btn', style: { minWidth: 0 }, onClick: () => post('/submit', values()) }, 'Save')

function Assignee() {
  const [who, setWho] = useState<string | null>(null)
  return h('div', null, h(Field, { className: 'field' }, h(Label, null, 'Assignee'),
    h(Listbox, { value: who, onChange: (v: unknown) => setWho(v as string | null) }, h(ListboxButton, { className: 'btn' }, who ?? 'Choose someone'),
      h(ListboxOptions, { anchor: 'bottom start', className: 'opts' }, PEOPLE.map((p) => h(ListboxOption, { key: p, value: p, className: 'opt' }, p))))),
    save(() => ({ assignee: who })))
}

function Reviewer() {
  const [who, setWho] = useState<string | null>(null)
  const [query, setQuery] = useState('')
  const shown = query ? PEOPLE.filter((p) => p.toLowerCase().includes(query.toLowerCase())) : PEOPLE
  return h('div', null, h(Field, { className: 'field' }, h(Label, null, 'Reviewer'),
    h(Combobox, { value: who, onChange: (v: unknown) => setWho(v as string | null), onClose: () => setQuery('') },
      h(ComboboxInput, { className: 'btn', displayValue: (p: unknown) => String(p ?? ''), onChange: (e: { target: { value: string } }) => setQuery(e.target.value), ...{ placeholder: 'Type a name' } }),
      h(ComboboxOptions, { anchor: 'bottom start', className: 'opts' }, shown.map((p) => h(ComboboxOption, { key: p, value: p, className: 'opt' }, p))))),
    save(() => ({ reviewer: who })))
}

function Notify() {
  const [on, setOn] = useState(false)
  const [digest, setDigest] = useState(true)
  return h('div', null,
    h(Field, { className: 'field' }, h(Switch, { checked: digest, onChange: setDigest, className: 'sw' }), h(Label, null, 'Weekly digest')),
    h(Field, { className: 'field' }, h(Switch, { checked: on, onChange: setOn, className: 'sw' }), h(Label, null, 'Enable notifications')),
    save(() => ({ notifications: on, digest })))
}

const PAGES: Record<string, () => ReactNode> = { 'hl-listbox': Assignee, 'hl-combobox': Reviewer, 'hl-switch': Notify }

createRoot(document.getElementById('app')!).render(h(pick(PAGES)))

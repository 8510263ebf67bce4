/** react-select: a single Select and a multi Select, labelled by inputId as its docs show. */
import { createElement as h, useState, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import Select from 'react-select'
import { pick, post } from './zoo'

type Option = { value: string; label: string }
const opts = (xs: string[]): Option[] => xs.map((x) => ({ value: x.toLowerCase(), label: x }))
const save = (values: () => unknown, label = 'Submit') => h('button', { type: 'button', style: { marginTop: 16 }, onClick: () => post('/submit', values()) }, label)

function Flavour() {
  const [v, setV] = useState<Option | null>(null)
  return h('div', { style: { width: 320 } }, h('label', { htmlFor: 'flavour' }, 'Flavour'),
    h(Select<Option>, { inputId: 'flavour', options: opts(['Chocolate', 'Strawberry', 'Vanilla']), value: v, onChange: (o: Option | null) => setV(o) }), save(() => ({ flavour: v?.value })))
}

function Colours() {
  const [v, setV] = useState<readonly Option[]>([])
  return h('div', { style: { width: 320 } }, h('label', { htmlFor: 'colours' }, 'Colours'),
    h(Select<Option, true>, { inputId: 'colours', isMulti: true, options: opts(['Ocean', 'Blue', 'Purple', 'Red', 'Orange', 'Yellow']), value: v, onChange: (o: readonly Option[]) => setV(o) }),
    save(() => ({ colours: v.map((o) => o.value) })))
}

function Country() {
  const [v, setV] = useState<Option | null>(null)
  return h('div', { style: { width: 320 } }, h('label', { htmlFor: 'country' }, 'Country'),
    h(Select<Option>, { inputId: 'country', isSearchable: true, options: opts(['Argentina', 'Brazil', 'Canada', 'Denmark', 'Egypt', 'France', 'Germany', 'Japan', 'Kenya', 'Mexico', 'Norway']), value: v, onChange: (o: Option | null) => setV(o) }),
    save(() => ({ country: v?.value }), 'Continue'))
}

const PAGES: Record<string, () => ReactNode> = { 'rs-single': Flavour, 'rs-multi': Colours, 'rs-search': Country }

createRoot(document.getElementById('app')!).render(h(pick(PAGES)))

import { createElement as h } from 'react'
import { createRoot } from 'react-dom/client'
import { PlainWidget, widgets } from './react-base'

createRoot(document.getElementById('app')!).render(h('div', null, widgets().map((w, i) => h('section', { key: i }, h(PlainWidget, { w })))))

/** Plain DOM: native forms, links, <details>, <dialog>; handlers where pages put them. */
import type { PageConfirm, Widget } from '../types'
import { isNamedIcon, svgMarkup } from './icons'
import { runEffect, said, spec, status } from './spec'

type Attrs = Record<string, string | undefined>
function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) node.setAttribute(k, v)
  node.append(...children)
  return node
}

function iconNode(icon: string): Node {
  if (!isNamedIcon(icon)) return document.createTextNode(icon)
  const span = el('span', { class: 'icon' })
  span.innerHTML = svgMarkup(icon)
  return span
}

function confirmThen(confirm: PageConfirm, go: () => void): void {
  const ok = el('button', { class: 'primary' }, confirm.ok ?? said('OK', '确定'))
  const cancel = el('button', {}, confirm.cancel ?? said('Cancel', '取消'))
  const box = el(confirm.style === 'modal' ? 'dialog' : 'div', { class: confirm.style, role: confirm.style === 'modal' ? undefined : 'dialog' },
    el('p', { class: 'dialog-title' }, confirm.title), ...(confirm.content ? [el('p', {}, confirm.content)] : []), el('div', { class: 'row' }, cancel, ok))
  document.getElementById('app')!.append(box)
  if (box instanceof HTMLDialogElement) box.showModal()
  cancel.onclick = () => box.remove()
  ok.onclick = () => {
    box.remove()
    go()
  }
}

function render(w: Widget): HTMLElement {
  switch (w.kind) {
    case 'button': {
      const b = el(w.element ?? 'button', { class: 'btn', 'aria-label': w.aria, title: w.title, ...(w.element ? { tabindex: '0' } : { type: 'button' }) }, ...(w.icon ? [iconNode(w.icon)] : []), w.label)
      b.addEventListener('click', () => (w.confirm ? confirmThen(w.confirm, () => runEffect(w.effect)) : runEffect(w.effect)))
      return b
    }
    case 'form': {
      const form = el('form', w.action ? { action: spec.base + w.action.path, method: w.action.method } : {})
      for (const f of w.fields) {
        const input = f.kind === 'textarea' ? el('textarea', { name: f.name, id: f.name }) : el('input', { name: f.name, id: f.name, type: f.kind ?? 'text', value: f.value })
        form.append(el('label', {}, f.label, ' ', input))
      }
      const label = [...(w.submit.icon ? [iconNode(w.submit.icon)] : []), w.submit.label]
      if (w.requestSubmit) {
        const div = el('div', { class: 'btn', tabindex: '0' }, ...label)
        div.onclick = () => form.requestSubmit()
        form.append(div)
      } else form.append(el('button', { type: 'submit', class: 'btn' }, ...label))
      if (w.onSubmit) {
        const effect = w.onSubmit
        form.addEventListener('submit', (e) => {
          e.preventDefault()
          runEffect(effect, (form.elements[0] as HTMLInputElement | undefined)?.value ?? '')
        })
      }
      return form
    }
    case 'chat': {
      const editable = w.box === 'contenteditable'
      const area = editable
        ? el('div', { id: 'chat', role: 'textbox', contenteditable: 'true', 'aria-multiline': 'true', 'aria-label': w.aria ?? w.placeholder, 'data-placeholder': w.placeholder, class: 'box' })
        : el('textarea', { id: 'chat', name: 'message', placeholder: w.placeholder, rows: '3', 'aria-label': w.aria })
      const valueOf = () => (area instanceof HTMLTextAreaElement ? area.value : (area.textContent ?? ''))
      const sendNow = () => {
        runEffect(w.effect, valueOf())
        if (area instanceof HTMLTextAreaElement) area.value = ''
        else area.textContent = ''
      }
      if (w.typing) area.addEventListener('input', () => runEffect(w.typing, ''))
      area.addEventListener('keydown', (e) => {
        const wanted = w.key === 'Enter' ? !e.shiftKey && !e.ctrlKey && !e.metaKey : e.ctrlKey || e.metaKey
        if (e.key !== 'Enter' || !wanted) return
        e.preventDefault()
        sendNow()
      })
      const send = w.sendLabel ? [el('button', { type: 'button', class: 'btn', id: 'send' }, w.sendLabel)] : []
      send[0]?.addEventListener('click', sendNow)
      return el('div', { class: 'chat' }, area, ...send, el('small', {}, w.key === 'Enter' ? said('Enter to send', '按 Enter 发送') : said('Ctrl+Enter to send', 'Ctrl+Enter 发送')))
    }
    case 'select': {
      const select = el('select', { id: 'setting', name: 'setting' }, ...w.options.map((o) => el('option', o === w.value ? { selected: '' } : {}, o)))
      select.addEventListener('change', () => runEffect(w.effect, select.value))
      return el('label', {}, w.label, ' ', select)
    }
    case 'toggle': {
      if (w.style === 'checkbox') {
        const box = el('input', { type: 'checkbox', id: 'toggle', ...(w.checked ? { checked: '' } : {}) })
        box.addEventListener('change', () => runEffect(w.effect))
        return el('label', {}, box, ' ', w.label)
      }
      const sw = el('button', { type: 'button', role: 'switch', id: 'toggle', 'aria-checked': String(w.checked), class: 'switch' }, w.label)
      sw.onclick = () => {
        sw.setAttribute('aria-checked', String(sw.getAttribute('aria-checked') !== 'true'))
        runEffect(w.effect, sw.getAttribute('aria-checked')!)
      }
      return sw
    }
    case 'link': {
      const a = el('a', { href: w.expands ? 'javascript:void(0)' : spec.base + w.href }, w.label)
      if (w.expands) {
        const more = el('p', { hidden: '' }, w.expands)
        a.onclick = () => (more.hidden = false)
        return el('div', {}, a, more)
      }
      return a
    }
    case 'accordion':
      return el('div', {}, ...w.items.map((i) => el('details', {}, el('summary', {}, i.title), el('p', {}, i.body))))
    case 'tabs': {
      const body = el('div', { role: 'tabpanel' }, w.tabs[0]!.body)
      const tabs = w.tabs.map((t, i) => {
        const b = el('button', { role: 'tab', type: 'button', 'aria-selected': String(i === 0) }, t.title)
        b.onclick = () => {
          tabs.forEach((x) => x.setAttribute('aria-selected', String(x === b)))
          body.textContent = t.body
          runEffect(w.effect)
        }
        return b
      })
      return el('div', {}, el('div', { role: 'tablist' }, ...tabs), body)
    }
    case 'pagination': {
      const nav = el('nav', { 'aria-label': said('Pagination', '分页') })
      for (let p = 1; p <= w.pages; p++) {
        const b = el('button', { type: 'button', 'aria-current': p === 1 ? 'page' : undefined }, String(p))
        b.onclick = () => {
          status(said(`Page ${p}`, `第 ${p} 页`))
          runEffect(w.effect)
        }
        nav.append(b)
      }
      return nav
    }
    case 'chips':
      return el('div', { class: 'chips' }, ...w.chips.map((c) => {
        const x = el('button', { type: 'button', 'aria-label': `${w.removeLabel} ${c}` }, '×')
        const chip = el('span', { class: 'chip' }, c, ' ', x)
        x.onclick = () => {
          chip.remove()
          runEffect(w.effect)
        }
        return chip
      }))
    case 'datepicker': {
      const input = el('input', { id: 'date', readonly: '', placeholder: w.label })
      const wrap = el('div', { class: 'picker' }, el('label', {}, w.label, ' ', input))
      input.onclick = () => {
        const ok = el('button', { type: 'button', class: 'primary' }, w.ok ?? said('OK', '确定'))
        const days = [12, 13, 14].map((d) => {
          const b = el('button', { type: 'button' }, String(d))
          b.onclick = () => (input.value = `2026-12-${d}`)
          return b
        })
        const pop = el('div', { class: 'popup' }, ...days, ok)
        ok.onclick = () => {
          pop.remove()
          runEffect(w.effect)
        }
        wrap.append(pop)
      }
      return wrap
    }
    case 'frame':
      return el('iframe', { src: `${spec.base}/frame`, title: w.title, style: 'width:520px;height:140px;border:1px solid #ccc' })
    case 'list': {
      const ul = el('ul', { role: 'listbox', 'aria-label': said('Items', '列表') })
      let selected: HTMLElement | null = null
      for (const item of w.items) {
        const li = el('li', { role: 'option', tabindex: '0', 'aria-selected': 'false' }, item)
        li.onclick = () => {
          selected?.setAttribute('aria-selected', 'false')
          selected = li
          li.setAttribute('aria-selected', 'true')
          li.focus()
        }
        ul.append(li)
      }
      document.addEventListener('keydown', (e) => {
        if ((e.key === 'Delete' || e.key === 'Backspace') && selected) {
          runEffect(w.effect, selected.textContent ?? '')
          selected.remove()
          selected = null
        }
      })
      return ul
    }
  }
}

const app = document.getElementById('app')!
for (const w of spec.widgets) app.append(el('section', {}, render(w)))

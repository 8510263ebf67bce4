import type { Target } from '../../../protocol/action'
import { findSensitive } from '../../../protocol/sensitive-text'
import { isTag } from '../page/dom'
import { isSecretField } from '../page/sensitive'
import { accessibleName, roleOf, visibleLabel } from '../page/semantics'

/** How a recorded step finds its element again: role and accessible name, visible text, CSS selector (tried in that order). */
export interface RecordedTarget {
  target?: Extract<Target, { by: 'role' }>
  /** What a person reads on it (a click only: a typed step's text is what it types). */
  text?: string
  selector: string
  /** The element in words, for the step's description. */
  label: string
}

const NAME_MAX = 200
// Ids and classes that change on every build or render (react-123, :r5:, css-1x2y3z, sc-abc12) name nothing.
const GENERATED = /\d{3,}|^_|:|^(ember|react|mui|radix|headlessui|ng-|vue-|css-|sc-|jsx-)|(?=[a-f]*\d)[0-9a-f]{8,}/i
const collapse = (s: string) => s.replace(/\s+/g, ' ').trim()
const cssString = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\a ')}"`
const cssIdent = (v: string) => v.replace(/([^\w-])/g, '\\$1')
// A name holding an email, a phone or a card number is the person's own: the element is found by its selector instead.
const personal = (s: string) => findSensitive(s, { emails: true, phones: true }).length > 0

function unique(doc: Document, selector: string, el: Element): boolean {
  try {
    const found = doc.querySelectorAll(selector)
    return found.length === 1 && found[0] === el
  } catch {
    return false
  }
}

/** One step of a path: the tag, its stable classes, and its place among siblings of that tag when needed. */
function segment(el: Element): string {
  const tag = el.tagName.toLowerCase()
  const classes = [...el.classList].filter((c) => !GENERATED.test(c)).slice(0, 2)
  let part = tag + classes.map((c) => `.${cssIdent(c)}`).join('')
  const parent = el.parentElement
  if (parent) {
    const same = [...parent.children].filter((c) => c.tagName === el.tagName && c.matches(part))
    if (same.length > 1) part += `:nth-of-type(${[...parent.children].filter((c) => c.tagName === el.tagName).indexOf(el) + 1})`
  }
  return part
}

/** The shortest stable CSS selector for an element: its id, a naming attribute, else a path of tags and classes. */
export function selectorOf(el: Element): string {
  const doc = el.ownerDocument
  const tag = el.tagName.toLowerCase()
  if (el.id && !GENERATED.test(el.id) && unique(doc, `#${cssIdent(el.id)}`, el)) return `#${cssIdent(el.id)}`
  for (const attr of ['data-testid', 'data-test', 'name', 'aria-label', 'placeholder']) {
    const value = el.getAttribute(attr)
    if (value && value.length <= NAME_MAX && !personal(value)) {
      const selector = `${tag}[${attr}=${cssString(value)}]`
      if (unique(doc, selector, el)) return selector
    }
  }
  const parts: string[] = []
  for (let node: Element | null = el; node && node !== doc.documentElement; node = node.parentElement) {
    if (node !== el && node.id && !GENERATED.test(node.id)) {
      parts.unshift(`#${cssIdent(node.id)}`)
      break
    }
    parts.unshift(segment(node))
    const selector = parts.join(' > ')
    if (unique(doc, selector, el)) return selector
  }
  return parts.join(' > ')
}

/** The control a click landed in: the button around the icon, the link around the text. */
export function controlAround(el: Element): Element {
  for (let node: Element | null = el; node; node = node.parentElement) {
    const role = roleOf(node)
    if (role && ['button', 'link', 'checkbox', 'radio', 'option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'combobox', 'treeitem', 'gridcell'].includes(role)) return node
    if (isTag(node, 'input') || isTag(node, 'select') || isTag(node, 'textarea') || isTag(node, 'label') || isTag(node, 'summary')) return node
  }
  return el
}

/** Every way a replay can find this element again. */
export function recordedTarget(el: Element, kind: 'click' | 'field'): RecordedTarget {
  const role = roleOf(el)
  const name = collapse(accessibleName(el, NAME_MAX))
  const shown = kind === 'click' ? collapse(visibleLabel(el, NAME_MAX)) : ''
  // A password field's name is fine ("Password"); what is typed is what never leaves.
  const nameOk = name && !personal(name)
  const out: RecordedTarget = { selector: selectorOf(el), label: (nameOk ? name : '') || (shown && !personal(shown) ? shown : '') || el.tagName.toLowerCase() }
  if (role && nameOk) out.target = { by: 'role', value: `${role}:${name}` }
  if (shown && !personal(shown)) out.text = shown
  else if (kind === 'click' && nameOk && !out.target) out.text = name
  return out
}

/** A field whose value must never be kept: passwords, card numbers, one-time codes. */
export const isSecret = (el: Element) => isSecretField(el)

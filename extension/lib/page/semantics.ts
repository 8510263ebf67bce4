import { collapseWhitespace, isTag, truncate } from './dom'

/** ARIA roles that make an element something a person operates (DESIGN: interactive elements). */
export const WIDGET_ROLES = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
  'option', 'combobox', 'listbox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem',
])

const INPUT_ROLES: Record<string, string> = {
  button: 'button', submit: 'button', reset: 'button', image: 'button', checkbox: 'checkbox', radio: 'radio',
  range: 'slider', number: 'spinbutton', search: 'searchbox', email: 'textbox', tel: 'textbox', text: 'textbox',
  url: 'textbox', password: 'textbox',
}

export function explicitRole(el: Element): string | undefined {
  const role = el.getAttribute('role')
  return role ? role.trim().split(/\s+/)[0]?.toLowerCase() || undefined : undefined
}

/** The role a browser would give the element without any role attribute. */
export function implicitRole(el: Element): string | undefined {
  switch (el.localName) {
    case 'a':
    case 'area':
      return el.hasAttribute('href') ? 'link' : undefined
    case 'button':
    case 'summary':
      return 'button'
    case 'select':
      return (el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox'
    case 'textarea':
      return 'textbox'
    case 'option':
      return 'option'
    case 'input': {
      const input = el as HTMLInputElement
      if (input.hasAttribute('list')) return 'combobox'
      return INPUT_ROLES[input.type] ?? (input.type === 'hidden' ? undefined : 'textbox')
    }
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
      return 'heading'
    case 'img':
      return 'img'
    case 'ul':
    case 'ol':
      return 'list'
    case 'li':
      return 'listitem'
    case 'nav':
      return 'navigation'
    case 'main':
      return 'main'
    case 'dialog':
      return 'dialog'
    case 'table':
      return 'table'
    case 'form':
      return 'form'
    default:
      return (el as HTMLElement).isContentEditable && el.getAttribute('contenteditable') !== null ? 'textbox' : undefined
  }
}

export function roleOf(el: Element): string | undefined {
  return explicitRole(el) ?? implicitRole(el)
}

/** Interactive by its nature (tag, ARIA widget role, editable root), regardless of handlers or style. */
export function isSemanticInteractive(el: Element): boolean {
  switch (el.localName) {
    case 'a':
      if (el.hasAttribute('href')) return true
      break
    case 'button':
    case 'select':
    case 'textarea':
    case 'summary':
      return true
    case 'input':
      return (el as HTMLInputElement).type !== 'hidden'
  }
  const role = explicitRole(el)
  if (role && WIDGET_ROLES.has(role)) return true
  const editable = el.getAttribute('contenteditable')
  if (editable !== null && editable !== 'false') {
    const parent = el.parentElement
    return !parent || !parent.isContentEditable
  }
  return false
}

export function isDisabled(el: Element): boolean {
  if ((el as HTMLButtonElement).disabled === true) return true
  if (el.getAttribute('aria-disabled') === 'true') return true
  try {
    return el.matches(':disabled')
  } catch {
    return false
  }
}

// A label wrapping a <select> must not read as all of its options.
const SKIP_TEXT = new Set(['script', 'style', 'noscript', 'template', 'svg', 'select', 'textarea', 'datalist'])

/**
 * Short readable text of an element: its descendant text (image alts included), stopped as soon as `max`
 * characters are collected, so a clickable wrapper around a whole page costs no more than a button.
 * Looks into an open shadow root when the light DOM has no text (custom-element buttons).
 */
export function shortText(el: Element, max = 80): string {
  let out = ''
  const visit = (node: Node): boolean => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) {
        out += child.nodeValue
        if (out.length > max * 2 + 40) return false
      } else if (child.nodeType === 1) {
        const element = child as Element
        if (SKIP_TEXT.has(element.localName)) continue
        if (element.localName === 'img') {
          const alt = element.getAttribute('alt')
          if (alt) out += ` ${alt} `
          continue
        }
        if (element.localName === 'br' || element.localName === 'p' || element.localName === 'div') out += ' '
        if (element.localName === 'slot') {
          // A slot's text is what the host put into it, not its (fallback) children.
          const assigned = (element as HTMLSlotElement).assignedNodes({ flatten: true })
          if (assigned.length) {
            for (const node of assigned) {
              if (node.nodeType === 3) out += node.nodeValue
              else if (node.nodeType === 1 && !visit(node)) return false
            }
            continue
          }
        }
        if (!visit(element)) return false
        if (element.shadowRoot && !element.textContent?.trim()) visit(element.shadowRoot)
      }
    }
    return true
  }
  visit(el)
  if (!out.trim() && el.shadowRoot) visit(el.shadowRoot)
  return truncate(collapseWhitespace(out), max)
}

/** Text of the <label>s of a form control. */
export function labelText(el: Element, max = 80): string {
  const labels = (el as HTMLInputElement).labels
  if (!labels || labels.length === 0) return ''
  return truncate(collapseWhitespace(Array.from(labels, (label) => shortText(label, max)).join(' ')), max)
}

function labelledByText(el: Element, max: number): string {
  const ids = el.getAttribute('aria-labelledby')
  if (!ids) return ''
  const root = el.getRootNode() as Document | ShadowRoot
  const parts = ids.split(/\s+/).map((id) => root.getElementById?.(id) ?? el.ownerDocument.getElementById(id))
  return truncate(collapseWhitespace(parts.map((p) => (p ? shortText(p, max) : '')).join(' ')), max)
}

/** The element's own text as a person reads it: button values, descendant text, image alts. */
export function visibleLabel(el: Element, max = 80): string {
  if (isTag(el, 'input')) {
    const type = el.type
    if (type === 'submit' || type === 'button' || type === 'reset') return truncate(collapseWhitespace(el.value || (type === 'submit' ? 'Submit' : '')), max)
    if (type === 'image') return truncate(el.alt || el.value, max)
    return ''
  }
  if (isTag(el, 'select') || isTag(el, 'textarea')) return ''
  if (isTag(el, 'img')) return truncate(collapseWhitespace(el.alt), max)
  return shortText(el, max)
}

/** Accessible name, simplified: aria-labelledby, aria-label, <label>, own text, title, placeholder, alt. */
export function accessibleName(el: Element, max = 80): string {
  return (
    labelledByText(el, max) ||
    collapseWhitespace(el.getAttribute('aria-label') ?? '') ||
    labelText(el, max) ||
    visibleLabel(el, max) ||
    collapseWhitespace(el.getAttribute('title') ?? '') ||
    collapseWhitespace(el.getAttribute('placeholder') ?? '') ||
    collapseWhitespace(el.getAttribute('alt') ?? '')
  )
}

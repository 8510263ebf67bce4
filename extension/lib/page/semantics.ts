import { contentText, labelledByText, labelsText, nameFromContent } from './accname'
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

/**
 * Short readable text of an element as a person sees it: its shown descendant text (image alts included), without
 * what `display:none`, `visibility:hidden` or a clipping box hide. See contentText.
 */
export function shortText(el: Element, max = 80): string {
  return contentText(el, max, { aria: false })
}

/** Text of the <label>s of a form control (or of an ARIA widget a `<label for>` points at). */
export function labelText(el: Element, max = 80): string {
  return labelsText(el, max, false)
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

/**
 * Accessible name as accname 1.2 computes it: aria-labelledby (every id, hidden targets included), aria-label,
 * <label>s (native, or `for` an ARIA widget), alt or button value, content for roles named by it (aria-hidden and
 * hidden parts left out, screen-reader-only text kept), then title and placeholder.
 */
export function accessibleName(el: Element, max = 80): string {
  const byRelation = labelledByText(el, max) || collapseWhitespace(el.getAttribute('aria-label') ?? '') || labelsText(el, max, true)
  if (byRelation) return byRelation
  if (isTag(el, 'input') && ['submit', 'button', 'reset', 'image'].includes(el.type)) {
    const own = visibleLabel(el, max)
    if (own) return own
  } else if (isTag(el, 'img') || isTag(el, 'area')) {
    const alt = collapseWhitespace(el.getAttribute('alt') ?? '')
    if (alt) return truncate(alt, max)
  } else if (nameFromContent(roleOf(el)) || el.localName === 'a') {
    const content = contentText(el, max, { aria: true })
    if (content) return content
  }
  return (
    collapseWhitespace(el.getAttribute('title') ?? '') ||
    collapseWhitespace(el.getAttribute('placeholder') ?? '') ||
    collapseWhitespace(el.getAttribute('aria-placeholder') ?? '')
  )
}

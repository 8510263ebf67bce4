import { contentText } from './accname'
import { collapseWhitespace, truncate } from './dom'
import { explicitRole } from './semantics'
import { isShown } from './visibility'

/**
 * Controls that look alike (the × of every todo, the remove icon of every attachment, the five stars of a rating):
 * what tells one from the others is the list item it sits in, or its place among its like siblings.
 */

const ITEM_ROLES = new Set(['row', 'listitem', 'option', 'treeitem', 'article'])
const ROW_DEPTH = 6
const ROW_MAX = 60
const SIBLINGS_MAX = 20

/** A sibling with the same tag and classes: the element is one of a list's repeated items (an inbox's `.msg`). */
function hasTwin(node: Element): boolean {
  const className = node.getAttribute('class')
  const same = (other: Element | null) => !!other && other.localName === node.localName && other.getAttribute('class') === className
  return same(node.previousElementSibling) || same(node.nextElementSibling)
}

const isItem = (node: Element) => node.localName === 'li' || node.localName === 'tr' || ITEM_ROLES.has(explicitRole(node) ?? '') || hasTwin(node)

const FIELD = 'input:not([type=hidden]):not([type=checkbox]):not([type=radio]), textarea, select, [role=textbox], [role=combobox], [contenteditable=true]'

/** A field shown in the item besides `el`: the item is a form's row, whose words are that field's label. */
const holdsField = (item: Element, el: Element) => Array.from(item.querySelectorAll(FIELD)).some((f) => f !== el && isShown(f))

/**
 * The words of the list item (an `li`, a table row, a repeated `.msg`) a control with no words of its own belongs to,
 * the control's own left out: "Invoice #2041 overdue" for an inbox row's delete icon. '' outside a list, and in a
 * form's row (its words name its field).
 */
export function rowOf(el: Element, max = ROW_MAX): string {
  let node = el.parentElement
  for (let depth = 0; node && depth < ROW_DEPTH; depth++, node = node.parentElement) {
    if (node.localName === 'body' || node.localName === 'html' || node.localName === 'form') return ''
    if (!isItem(node)) continue
    if (holdsField(node, el)) return ''
    return truncate(collapseWhitespace(contentText(node, max + 1, { aria: false, skip: el })), max)
  }
  return ''
}

/**
 * Where a control stands among its siblings that read the same (`key`: the fourth of five stars is "4/5"); '' when
 * it has none, or too many for a place to help.
 */
export function placeAmong(el: Element, key: (sibling: Element) => string): string {
  const parent = el.parentElement
  if (!parent || parent.childElementCount > SIBLINGS_MAX) return ''
  const own = key(el)
  if (!own) return ''
  let place = 0
  let count = 0
  for (let sibling = parent.firstElementChild; sibling; sibling = sibling.nextElementSibling) {
    if (sibling === el) place = count + 1
    if (sibling === el || (sibling.localName === el.localName && key(sibling) === own)) count++
  }
  return count > 1 ? `${place}/${count}` : ''
}

import { placeAmong, rowOf } from './alike'
import { iconNamesOf, pictureName } from './icons'
import { pseudoText } from './pseudo-text'
import { roleOf } from './semantics'

/** What a control with no words of its own shows instead, as the tree line carries it. */
export interface Unworded {
  /** The symbol CSS draws into it (×), standing where its text would. */
  text?: string
  /** What its picture or classes call it, with its place among like siblings (`star 4/5`). */
  icon?: string
  /** The list item it belongs to. */
  row?: string
}

// Named by their type and role: a field's classes or row say nothing it does not (a checkbox's row still does).
const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'spinbutton', 'slider'])
const FORM_FIELD = new Set(['input', 'select', 'textarea'])
// Letters or digits: a day's "14" or a page's "2" names it; ×, › and 🗑 do not.
const SAYS_SOMETHING = /[\p{L}\p{N}]/u

/**
 * A control whose words say nothing (none, a ×, 🗑) or are an icon's own name (a Material ligature): what a person
 * goes by instead. The symbol drawn into it; its icon's name, or what its classes call it (a field is named by its
 * type, not its classes); the row it sits in; and among like siblings outside any row (a rating's stars), its place.
 */
export function unworded(el: Element, named: string): Unworded {
  const found: Unworded = {}
  if (FIELD_ROLES.has(roleOf(el) ?? '')) return found
  const bare = !SAYS_SOMETHING.test(named)
  if (!named) {
    const drawn = pseudoText(el)
    if (drawn) found.text = drawn
  }
  const icon = bare && !FORM_FIELD.has(el.localName) ? pictureName(el) : iconNamesOf(el)
  if (icon) found.icon = icon
  if (!bare) return found
  const row = rowOf(el)
  if (row) found.row = row
  else if (icon) {
    const place = placeAmong(el, (sibling) => (sibling.localName === el.localName ? pictureName(sibling) : ''))
    if (place) found.icon = `${icon} ${place}`
  }
  return found
}

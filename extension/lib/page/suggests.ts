/**
 * A field that offers suggestions as a person types: a typeahead, an ARIA combobox, a datalist, jQuery UI's
 * autocomplete, select2's or chosen's search box. What it shows comes after the page's debounce (jQuery UI waits
 * 300 ms, select2's remote search 250 ms, then a request), so reading the page two frames after the last key, as
 * after typing elsewhere, reads it before the list a person is about to pick from.
 */

const TEXT_TYPES = new Set(['', 'text', 'search', 'email', 'url', 'tel'])
// The class words of the common typeahead widgets, on the field or the box around it.
const SUGGESTING_CLASS = /autocomplete|auto-complete|typeahead|suggest|combobox|select2-search|chosen-search|awesomplete|tt-input/i
const POPUP = new Set(['listbox', 'true', 'menu', 'tree', 'grid'])

/** How long typing into such a field is given to show its suggestions before the page is read without them. */
export const SETTLE_SUGGEST_MS = 700

export function suggestsAsTyped(el: Element | null): boolean {
  if (!el) return false
  const tag = el.localName
  if (tag === 'input' && !TEXT_TYPES.has((el.getAttribute('type') ?? '').toLowerCase())) return false
  if (tag !== 'input' && tag !== 'textarea' && el.getAttribute('role') !== 'combobox') return false
  if (el.getAttribute('role') === 'combobox' || el.hasAttribute('list')) return true
  const autocomplete = el.getAttribute('aria-autocomplete')
  if (autocomplete && autocomplete !== 'none') return true
  if (POPUP.has(el.getAttribute('aria-haspopup') ?? '')) return true
  // A site that turns the browser's own suggestions off for a plain text field usually shows its own.
  if (tag === 'input' && el.getAttribute('autocomplete') === 'off') return true
  for (let node: Element | null = el, up = 0; node && up < 3; node = node.parentElement, up++) {
    if (SUGGESTING_CLASS.test(node.getAttribute('class') ?? '')) return true
    if (up > 0 && node.getAttribute('role') === 'combobox') return true
  }
  return false
}

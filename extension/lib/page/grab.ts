/**
 * Items a person picks up and moves: what the browser drags (`draggable=true`), what says it can be moved (ARIA's
 * `aria-roledescription="sortable"` that dnd-kit sets, `aria-grabbed`), the items jQuery UI's sortable and draggable
 * mark as handles, and (see createInteractiveDetector) whatever shows a move or grab cursor from where it starts: a
 * SortableJS list leaves no trace in the DOM until a drag begins, but its page styles the items so.
 */
export const GRAB_CURSORS = new Set(['move', 'grab', 'grabbing', '-webkit-grab', '-webkit-grabbing'])

const HANDLE_CLASS = /(^|\s)ui-(sortable|draggable)-handle(\s|$)/
const MOVABLE_ROLE = /sortable|draggable/i

export function saysDraggable(el: Element): boolean {
  if (el.localName === 'img' || el.localName === 'a') return false
  if (el.getAttribute('draggable') === 'true' || el.hasAttribute('aria-grabbed')) return true
  const description = el.getAttribute('aria-roledescription')
  if (description && MOVABLE_ROLE.test(description)) return true
  return HANDLE_CLASS.test(el.getAttribute('class') ?? '')
}

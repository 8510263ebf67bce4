/**
 * Items a person picks up and moves: what the browser drags (`draggable=true`), what says it can be moved (ARIA's
 * `aria-roledescription="sortable"` that dnd-kit sets, `aria-grabbed`), the items jQuery UI's sortable and draggable
 * mark as handles, and (see createInteractiveDetector) whatever shows a move or grab cursor from where it starts: a
 * SortableJS list leaves no trace in the DOM until a drag begins, but its page styles the items so.
 */
export const GRAB_CURSORS = new Set(['move', 'grab', 'grabbing', '-webkit-grab', '-webkit-grabbing'])

/** What says an element can be moved, besides `draggable=true`: found once per document or shadow root. */
export const MOVABLE = [
  '[aria-grabbed]', '[aria-roledescription*="sortable" i]', '[aria-roledescription*="draggable" i]', '.ui-sortable-handle', '.ui-draggable-handle',
].join(', ')

/** Marked draggable by the browser's own attribute (an image or a link is draggable by nature, and says nothing). */
export const saysDraggable = (el: Element): boolean => el.getAttribute('draggable') === 'true' && el.localName !== 'img' && el.localName !== 'a'

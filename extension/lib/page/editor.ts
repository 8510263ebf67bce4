/** The root of a contenteditable region (not a part inside it). */
export function isEditorRoot(el: Element): boolean {
  const editable = el.getAttribute('contenteditable')
  if (editable === null || editable === 'false') return false
  return !el.parentElement?.isContentEditable
}

/**
 * What an empty rich-text editor asks for: `aria-placeholder`, Quill's `data-placeholder` on the editor, or
 * TipTap/ProseMirror's `data-placeholder` on its empty first paragraph.
 */
export function editorPlaceholder(el: Element): string {
  const own = el.getAttribute('aria-placeholder') || el.getAttribute('data-placeholder') || el.getAttribute('placeholder')
  if (own) return own
  const first = el.firstElementChild
  if (first && !first.textContent?.trim()) return first.getAttribute('data-placeholder') ?? ''
  return ''
}

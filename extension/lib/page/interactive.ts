import { isTag } from './dom'
import { isSemanticInteractive } from './semantics'

const NEVER_WEAK = new Set(['html', 'body', 'label', 'iframe', 'frame', 'option', 'optgroup'])

/**
 * Finds interactive elements during one walk. Semantic ones (links, buttons, fields, ARIA widgets, editors) always
 * count, even inside a clickable card; "weak" ones (onclick, tabindex>=0, cursor:pointer) only when no ancestor already counts, so the spans
 * inside a clickable card do not each become an element. Cursor is inherited, so a pointer that starts at an
 * element (its parent has none) marks where the clickable region begins.
 */
export function createInteractiveDetector() {
  const stack: { interactive: boolean; cursor: string }[] = []
  let inside = 0

  function weakClickable(el: Element, parentCursor: string): { clickable: boolean; cursor: string } {
    if (NEVER_WEAK.has(el.localName)) return { clickable: false, cursor: parentCursor }
    if (el.hasAttribute('onclick') || typeof (el as HTMLElement).onclick === 'function') return { clickable: true, cursor: parentCursor }
    const tabindex = el.getAttribute('tabindex')
    if (tabindex !== null && Number(tabindex) >= 0) return { clickable: true, cursor: parentCursor }
    const view = el.ownerDocument.defaultView
    const cursor = view ? view.getComputedStyle(el).cursor : 'auto'
    return { clickable: cursor === 'pointer' && parentCursor !== 'pointer', cursor }
  }

  return {
    /** Whether `el` is interactive; call `leave` for it after its subtree when this returned anything. */
    enter(el: Element): boolean {
      let interactive = isSemanticInteractive(el)
      let cursor = stack.length ? stack[stack.length - 1]!.cursor : 'auto'
      if (!interactive && inside === 0) {
        const weak = weakClickable(el, el.parentNode?.nodeType === 9 ? 'auto' : cursor)
        interactive = weak.clickable
        cursor = weak.cursor
      }
      // A hidden input can carry an onclick; it is still nothing a person can reach.
      if (isTag(el, 'input') && el.type === 'hidden') interactive = false
      stack.push({ interactive, cursor })
      if (interactive) inside++
      return interactive
    },
    leave(): void {
      if (stack.pop()?.interactive) inside--
    },
  }
}

import { isTag } from './dom'
import { explicitRole, isSemanticInteractive } from './semantics'

const NEVER_WEAK = new Set(['html', 'body', 'label', 'iframe', 'frame', 'option', 'optgroup'])
// Widgets made of other widgets: a person clicks the days of a grid or the items of a listbox, not the grid.
const COMPOSITE_ROLES = new Set(['listbox', 'grid', 'treegrid', 'tree', 'menu', 'menubar', 'tablist', 'radiogroup', 'toolbar'])

/**
 * Finds interactive elements during one walk. Semantic ones (links, buttons, fields, ARIA widgets, editors) always
 * count, even inside a clickable card; "weak" ones (onclick, tabindex>=0, cursor:pointer) only when no ancestor already counts, so the spans
 * inside a clickable card do not each become an element. Cursor is inherited, so a pointer that starts at an
 * element (its parent has none) marks where the clickable region begins. Something only focusable (a `tabindex`
 * calendar panel) or a composite widget (grid, listbox, menu) does not count as an ancestor: the days and items
 * inside are what gets clicked.
 */
export function createInteractiveDetector() {
  const stack: { interactive: boolean; covers: boolean; focusOnly: boolean; cursor: string }[] = []
  // A weak element that only takes focus: the caller drops it when it turns out to hold controls.
  let inside = 0

  function weakClickable(el: Element, parentCursor: string): { clickable: boolean; focusOnly: boolean; cursor: string } {
    if (NEVER_WEAK.has(el.localName)) return { clickable: false, focusOnly: false, cursor: parentCursor }
    if (el.hasAttribute('onclick') || typeof (el as HTMLElement).onclick === 'function') return { clickable: true, focusOnly: false, cursor: parentCursor }
    const view = el.ownerDocument.defaultView
    const cursor = view ? view.getComputedStyle(el).cursor : 'auto'
    const pointer = cursor === 'pointer' && parentCursor !== 'pointer'
    const tabindex = el.getAttribute('tabindex')
    if (!pointer && tabindex !== null && Number(tabindex) >= 0) return { clickable: true, focusOnly: true, cursor }
    return { clickable: pointer, focusOnly: false, cursor }
  }

  return {
    /** Whether `el` is interactive; call `leave` for it after its subtree when this returned anything. */
    enter(el: Element): boolean {
      let interactive = isSemanticInteractive(el)
      let covers = interactive && !COMPOSITE_ROLES.has(explicitRole(el) ?? '')
      let focusOnly = false
      let cursor = stack.length ? stack[stack.length - 1]!.cursor : 'auto'
      if (!interactive && inside === 0) {
        const weak = weakClickable(el, el.parentNode?.nodeType === 9 ? 'auto' : cursor)
        interactive = weak.clickable
        covers = weak.clickable && !weak.focusOnly
        focusOnly = weak.focusOnly
        cursor = weak.cursor
      } else if (!interactive && el.localName === 'a') {
        // A script-driven link (no href) inside a clickable card is still a link of its own ("收藏" on a product card).
        const weak = weakClickable(el, 'auto')
        interactive = covers = weak.clickable && !weak.focusOnly
        cursor = weak.cursor
      }
      // A hidden input can carry an onclick; it is still nothing a person can reach.
      if (isTag(el, 'input') && el.type === 'hidden') interactive = covers = false
      stack.push({ interactive, covers, focusOnly: interactive && focusOnly, cursor })
      if (covers) inside++
      return interactive
    },
    /** Ends `el`'s subtree; says whether it counted only for taking focus (it covers nothing inside). */
    leave(): { focusOnly: boolean } {
      const top = stack.pop()
      if (top?.covers) inside--
      return { focusOnly: !!top?.focusOnly }
    },
  }
}

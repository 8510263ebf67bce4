import { declaresClick } from './declared-handlers'
import { isTag } from './dom'
import { GRAB_CURSORS, saysDraggable } from './grab'
import type { Listens } from './listening'
import { laidOutside, repeatedItem } from './popup-items'
import { explicitRole, isSemanticInteractive } from './semantics'

/** Why an element is listed beyond being clickable: it reveals something on hover, it can be dragged, or dropped on. */
export type Mark = 'hover' | 'draggable' | 'dropzone'

// Underlined words that are not a link (a name that opens a hover card): short, inline, where the underline starts.
const NOT_HOVER_UNDERLINE = new Set(['u', 'ins', 'abbr', 'a', 'label'])
function underlinedWords(el: Element, style: CSSStyleDeclaration): boolean {
  if (NOT_HOVER_UNDERLINE.has(el.localName) || !style.display.startsWith('inline')) return false
  const length = el.textContent?.trim().length ?? 0
  return length > 0 && length <= 30
}

/** A hover handler the page set as an attribute or property (listeners added with addEventListener cannot be seen). */
function hoverHandler(el: Element): boolean {
  const h = el as HTMLElement
  return el.hasAttribute('onmouseenter') || el.hasAttribute('onmouseover') || typeof h.onmouseenter === 'function' || typeof h.onmouseover === 'function'
}

/**
 * A listener bound to a box that holds much of the page (an app's root closing its menus, a modal's backdrop) is no
 * control a person presses, and counting it would hide the controls inside it.
 */
function pressable(el: Element): boolean {
  const view = el.ownerDocument.defaultView
  const rect = el.getBoundingClientRect()
  return !view || rect.width * rect.height <= 0.25 * view.innerWidth * view.innerHeight
}

const NEVER_WEAK = new Set(['html', 'body', 'label', 'iframe', 'frame', 'option', 'optgroup'])
// Widgets made of other widgets: a person clicks the days of a grid or the items of a listbox, not the grid.
const COMPOSITE_ROLES = new Set(['listbox', 'grid', 'treegrid', 'tree', 'menu', 'menubar', 'tablist', 'radiogroup', 'toolbar'])

/**
 * Finds interactive elements during one walk. Semantic ones (links, buttons, fields, ARIA widgets, editors) always
 * count, even inside a clickable card; "weak" ones (a handler declared or bound, tabindex>=0, cursor:pointer) only
 * when no ancestor already counts, so the spans inside a clickable card do not each become an element. Cursor is
 * inherited, so a pointer that starts at an element (its parent has none) marks where the clickable region begins.
 * Something only focusable (a `tabindex` calendar panel) or known only by its listener, or a composite widget (grid,
 * listbox, menu) does not count as an ancestor: the days and items inside are what gets clicked. A move or grab cursor starting at an element marks something to drag (see grab.ts).
 * A popup laid out beyond the clickable box that holds it is clicked item by item (see popup-items.ts).
 */
export function createInteractiveDetector(marks: Map<Element, Mark> = new Map(), listening: Map<Element, Listens> = new Map()) {
  type Frame = { interactive: boolean; weak: boolean; covers: boolean; focusOnly: boolean; cursor: string; underline: boolean; popup: boolean; resume: number }
  const stack: Frame[] = []
  // A weak element that only takes focus: the caller drops it when it turns out to hold controls.
  let inside = 0
  // The weak elements (a pointer, a handler) that cover what is inside them, innermost last; null for a semantic one.
  const covering: (Element | null)[] = []

  type Weak = { clickable: boolean; focusOnly: boolean; cursor: string; underline: boolean; hover?: boolean; grab?: boolean }
  /** `item`: inside a popup whose items all inherit its pointer, an item of its list is clickable of its own. */
  function weakClickable(el: Element, parentCursor: string, parentUnderline: boolean, item: boolean): Weak {
    if (NEVER_WEAK.has(el.localName)) return { clickable: false, focusOnly: false, cursor: parentCursor, underline: parentUnderline }
    if (declaresClick(el)) return { clickable: true, focusOnly: false, cursor: parentCursor, underline: parentUnderline }
    const view = el.ownerDocument.defaultView
    const style = view?.getComputedStyle(el)
    const cursor = style ? style.cursor : 'auto'
    const underline = !!style && style.textDecorationLine.includes('underline')
    const pointer = cursor === 'pointer' && (parentCursor !== 'pointer' || (item && repeatedItem(el)))
    if (GRAB_CURSORS.has(cursor) && !GRAB_CURSORS.has(parentCursor)) return { clickable: true, focusOnly: false, cursor, underline, grab: true }
    const tabindex = el.getAttribute('tabindex')
    if (!pointer && tabindex !== null && Number(tabindex) >= 0) return { clickable: true, focusOnly: true, cursor, underline }
    // A listener alone counts too, yet gives way to controls inside it, as a focusable box does: jQuery UI's sortable
    // listens for clicks on the whole list, and the items are what a person moves.
    const listens = listening.get(el)
    if (!pointer && listens === 'press' && pressable(el)) return { clickable: true, focusOnly: true, cursor, underline }
    if (!pointer && ((underline && !parentUnderline && underlinedWords(el, style!)) || hoverHandler(el) || listens === 'hover')) return { clickable: true, focusOnly: false, cursor, underline, hover: true }
    return { clickable: pointer, focusOnly: false, cursor, underline }
  }

  return {
    /** Whether `el` is interactive; call `leave` for it after its subtree when this returned anything. */
    enter(el: Element): boolean {
      const semantic = isSemanticInteractive(el)
      let interactive = semantic
      let covers = interactive && !COMPOSITE_ROLES.has(explicitRole(el) ?? '')
      let focusOnly = false
      const parent = stack.length ? stack[stack.length - 1]! : undefined
      let cursor = parent?.cursor ?? 'auto'
      let underline = parent?.underline ?? false
      // A popup laid out beyond the box that covers it (a custom select's list below its clickable wrapper) is not
      // clicked by clicking that box: what is inside it counts again, from its own items.
      const cover = covering[covering.length - 1]
      const resume = inside > 0 && !interactive && cover && laidOutside(el, cover) ? inside : -1
      if (resume >= 0) inside = 0
      const popup = resume >= 0 || !!parent?.popup
      if (!marks.has(el) && saysDraggable(el)) marks.set(el, 'draggable')
      if (!interactive && marks.has(el)) {
        // Listed for what it does on hover or drag, yet it covers nothing: the links of a hover menu stay listed.
        interactive = true
      } else if (!interactive && inside === 0) {
        const weak = weakClickable(el, el.parentNode?.nodeType === 9 ? 'auto' : cursor, el.parentNode?.nodeType === 9 ? false : underline, popup)
        interactive = weak.clickable
        covers = weak.clickable && !weak.focusOnly && !weak.hover
        focusOnly = weak.focusOnly
        cursor = weak.cursor
        underline = weak.underline
        if (weak.hover) marks.set(el, 'hover')
        else if (weak.grab) marks.set(el, 'draggable')
      } else if (!interactive && el.localName === 'a') {
        // A script-driven link (no href) inside a clickable card is still a link of its own ("收藏" on a product card).
        const weak = weakClickable(el, 'auto', false, false)
        interactive = covers = weak.clickable && !weak.focusOnly
        cursor = weak.cursor
      }
      // A hidden input can carry an onclick; it is still nothing a person can reach.
      if (isTag(el, 'input') && el.type === 'hidden') interactive = covers = false
      const weak = interactive && !semantic && !marks.has(el)
      stack.push({ interactive, weak, covers, focusOnly: interactive && focusOnly, cursor, underline, popup, resume })
      if (covers) {
        inside++
        covering.push(weak ? el : null)
      }
      return interactive
    },
    /**
     * Ends `el`'s subtree; says whether it counted only for taking focus (it covers nothing inside), or only for a
     * handler or pointer (not by its nature, nor for hover or drag).
     */
    leave(): { focusOnly: boolean; weak: boolean } {
      const top = stack.pop()
      if (top?.covers) {
        inside--
        covering.pop()
      }
      if (top && top.resume >= 0) inside = top.resume
      return { focusOnly: !!top?.focusOnly, weak: !!top?.weak }
    },
  }
}

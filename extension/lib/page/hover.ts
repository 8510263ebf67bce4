import { hoverRules } from './hover-rules'

/**
 * Elements that react to the pointer resting on them, as far as a content script can tell: a stylesheet rule
 * `X:hover Y { display|visibility|opacity }` (a CSS menu whose submenu shows on hover, a todo whose × shows) makes
 * every X one (see hover-rules.ts).
 */

const UP = 12
const BACK = 10
const MATCH_BUDGET = 20000
const REVEALED_PER_RULE = 100

/** The nearest element matching `subject` that `revealed` sits inside or after (its ancestor, or an earlier sibling of it or of an ancestor). */
function subjectOf(revealed: Element, subject: string, budget: { left: number }): Element | null {
  let node: Element | null = revealed
  for (let depth = 0; node && depth < UP && budget.left > 0; depth++, node = node.parentElement) {
    budget.left--
    if (node !== revealed && node.matches(subject)) return node
    let sibling = node.previousElementSibling
    for (let n = 0; sibling && n < BACK; n++, sibling = sibling.previousElementSibling) {
      budget.left--
      if (sibling.matches(subject)) return sibling
    }
  }
  return null
}

const CONTROL = 'a[href], button, input, select, textarea, [role=button], [role=link], [role=menuitem], [role=tab]'

const shownBox = (el: Element) =>
  typeof (el as HTMLElement).checkVisibility === 'function' ? (el as HTMLElement).checkVisibility({ visibilityProperty: true }) : el.getClientRects().length > 0

const WORDS_SEEN = 50

/** Words the element shows outside the given controls (a todo's text in its row, beside its checkbox). */
function wordsBeside(el: Element, controls: Element[]): boolean {
  const walker = el.ownerDocument.createTreeWalker(el, 4)
  for (let seen = 0, node = walker.nextNode(); node && seen < WORDS_SEEN; node = walker.nextNode(), seen++) {
    if (!/[\p{L}\p{N}]/u.test(node.nodeValue ?? '')) continue
    const parent = node.parentElement
    if (parent && shownBox(parent) && !controls.some((control) => control.contains(parent))) return true
  }
  return false
}

/**
 * A control shown inside already takes the pointer there (a menu's own "Products" button; the links of a menu once
 * open): pointing at it hovers its container, which would only repeat its words, and those of all it reveals. A
 * container with words of its own beside its controls (a todo whose × shows on hover: its text is no control's) is
 * what a person points at.
 */
function pointedAtThroughControl(el: Element): boolean {
  const shown = Array.from(el.querySelectorAll(CONTROL)).filter(shownBox)
  return shown.length > 0 && !wordsBeside(el, shown)
}

/** Selector matches one observation may spend: a stylesheet of thousands of hover rules costs no more than this. */
export const hoverBudget = (): { left: number } => ({ left: MATCH_BUDGET })

/**
 * Elements of a document or shadow root that a stylesheet makes reveal something (a submenu, a card's actions) on
 * hover; `budget` is shared by the observation's documents and shadow roots.
 */
export function hoverTargets(root: Document | ShadowRoot, budget = hoverBudget()): Set<Element> {
  const targets = new Set<Element>()
  for (const rule of hoverRules(root)) {
    if (budget.left <= 0) break
    for (const revealed of Array.from(root.querySelectorAll(rule.revealed)).slice(0, REVEALED_PER_RULE)) {
      const subject = subjectOf(revealed, rule.subject, budget)
      // `body:hover .toolbar` reveals something for the whole page: nothing to point at.
      if (subject && subject.localName !== 'body' && subject.localName !== 'html' && !targets.has(subject) && !pointedAtThroughControl(subject)) targets.add(subject)
    }
  }
  return targets
}

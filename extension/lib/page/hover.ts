/**
 * Elements that react to the pointer resting on them, as far as a content script can tell: a stylesheet rule
 * `X:hover Y { display|visibility|opacity }` (a CSS menu whose submenu shows on hover) makes every X one. A rule that
 * only recolours the hovered element itself (`a:hover { color }`) does not.
 */

const MAX_RULES = 5000
const MAX_SUBJECTS = 200
const REVEALING = ['display', 'visibility', 'opacity'] as const

/** A rule revealing `revealed` when the pointer rests on its `subject`. */
export interface HoverRule {
  subject: string
  revealed: string
}

interface Cached {
  key: string
  rules: HoverRule[]
}

const cache = new WeakMap<Document, Cached>()

function rulesOf(sheet: CSSStyleSheet): CSSRuleList | null {
  try {
    return sheet.cssRules
  } catch {
    // A cross-origin sheet cannot be read.
    return null
  }
}

/** Changes only when a sheet is added, removed or gets rules: recomputing is skipped otherwise. */
function sheetsKey(doc: Document): string {
  let key = `${doc.styleSheets.length}`
  for (const sheet of Array.from(doc.styleSheets)) key += `:${rulesOf(sheet)?.length ?? 'x'}`
  return key
}

/** Splits a selector list at its top-level commas. */
function splitList(selector: string): string[] {
  const parts: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]
    if (c === '(' || c === '[') depth++
    else if (c === ')' || c === ']') depth--
    else if (c === ',' && depth === 0) {
      parts.push(selector.slice(start, i))
      start = i + 1
    }
  }
  parts.push(selector.slice(start))
  return parts.map((p) => p.trim()).filter(Boolean)
}

/**
 * The hovered part of a complex selector when the rule styles something else (`.nav > li:hover ul` → `.nav > li`):
 * the compound holding the last top-level `:hover`, with the `:hover`s taken out. Null when the rule styles the
 * hovered element itself.
 */
export function hoverSubject(selector: string): HoverRule | null {
  let depth = 0
  let at = -1
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]
    if (c === '(' || c === '[') depth++
    else if (c === ')' || c === ']') depth--
    else if (depth === 0 && selector.startsWith(':hover', i) && !/[\w-]/.test(selector[i + 6] ?? '')) at = i
  }
  if (at < 0) return null
  let end = at + 6
  depth = 0
  for (; end < selector.length; end++) {
    const c = selector[end]!
    if (c === '(' || c === '[') depth++
    else if (c === ')' || c === ']') depth--
    else if (depth === 0 && /[\s>+~]/.test(c)) break
  }
  if (!selector.slice(end).trim()) return null
  const noHover = (text: string) => text.replace(/:hover(?![\w-])/g, '').trim()
  const subject = noHover(selector.slice(0, end))
  if (!subject || /[>+~]$/.test(subject)) return null
  return { subject, revealed: noHover(selector) }
}

function reveals(style: CSSStyleDeclaration): boolean {
  return REVEALING.some((name) => style.getPropertyValue(name) !== '')
}

function collect(rules: CSSRuleList, subjects: Map<string, HoverRule>, budget: { left: number }): void {
  for (const rule of Array.from(rules)) {
    if (--budget.left < 0 || subjects.size >= MAX_SUBJECTS) return
    const style = (rule as CSSStyleRule).style
    const selectorText = (rule as CSSStyleRule).selectorText
    if (selectorText && style) {
      if (selectorText.includes(':hover') && reveals(style)) {
        for (const part of splitList(selectorText)) {
          const rule = hoverSubject(part)
          if (rule) subjects.set(`${rule.subject}\n${rule.revealed}`, rule)
        }
      }
    }
    // @media, @supports, @layer and nested rules.
    const inner = (rule as CSSGroupingRule).cssRules
    if (inner && inner.length) collect(inner, subjects, budget)
  }
}

/** Every same-origin stylesheet rule that reveals something beside or inside an element on hover. */
export function hoverRules(doc: Document): HoverRule[] {
  const key = sheetsKey(doc)
  const cached = cache.get(doc)
  if (cached && cached.key === key) return cached.rules
  const found = new Map<string, HoverRule>()
  const budget = { left: MAX_RULES }
  for (const sheet of Array.from(doc.styleSheets)) {
    const rules = rulesOf(sheet)
    if (rules) collect(rules, found, budget)
  }
  const valid = [...found.values()].filter((r) => {
    try {
      doc.querySelector(r.subject)
      doc.querySelector(r.revealed)
      return true
    } catch {
      return false
    }
  })
  cache.set(doc, { key, rules: valid })
  return valid
}

const UP = 12
const BACK = 10
// Selector matches per observation: a stylesheet of thousands of hover rules costs no more than this.
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

/**
 * A control shown inside already takes the pointer there (a menu's own "Products" button; the links of a menu once
 * open): pointing at it hovers its container, which would only repeat its words, and those of all it reveals.
 */
const holdsShownControl = (el: Element) => Array.from(el.querySelectorAll(CONTROL)).some(shownBox)

/** Elements of `doc` that a stylesheet makes reveal something (a submenu, a card's actions) on hover. */
export function hoverTargets(doc: Document): Set<Element> {
  const targets = new Set<Element>()
  const budget = { left: MATCH_BUDGET }
  for (const rule of hoverRules(doc)) {
    if (budget.left <= 0) break
    for (const revealed of Array.from(doc.querySelectorAll(rule.revealed)).slice(0, REVEALED_PER_RULE)) {
      const subject = subjectOf(revealed, rule.subject, budget)
      // `body:hover .toolbar` reveals something for the whole page: nothing to point at.
      if (subject && subject.localName !== 'body' && subject.localName !== 'html' && !targets.has(subject) && !holdsShownControl(subject)) targets.add(subject)
    }
  }
  return targets
}

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

// A sheet's hover rules, kept until it gets or loses rules: shadow roots adopting one sheet share the reading.
const cache = new WeakMap<CSSStyleSheet, { length: number; rules: HoverRule[] }>()

function rulesOf(sheet: CSSStyleSheet): CSSRuleList | null {
  try {
    return sheet.cssRules
  } catch {
    // A cross-origin sheet cannot be read.
    return null
  }
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

/** A sheet's rules that reveal something on hover, with selectors this browser can match. */
function sheetRules(rules: CSSRuleList, sheet: CSSStyleSheet, doc: Document, left: number): HoverRule[] {
  const cached = cache.get(sheet)
  if (cached && cached.length === rules.length) return cached.rules
  const found = new Map<string, HoverRule>()
  collect(rules, found, { left })
  const valid = [...found.values()].filter((r) => {
    try {
      doc.querySelector(r.subject)
      doc.querySelector(r.revealed)
      return true
    } catch {
      return false
    }
  })
  cache.set(sheet, { length: rules.length, rules: valid })
  return valid
}

/**
 * Every same-origin stylesheet rule that reveals something beside or inside an element on hover, in a document or a
 * shadow root (its own `<style>`s and the sheets it adopts: a web component's styles do not reach outside it).
 */
export function hoverRules(root: Document | ShadowRoot): HoverRule[] {
  const doc = root.nodeType === 9 ? (root as Document) : (root as ShadowRoot).host.ownerDocument
  const found = new Map<string, HoverRule>()
  // Rules read per root: past this many, the rest of its sheets are left unread.
  let left = MAX_RULES
  for (const sheet of [...Array.from(root.styleSheets), ...(root.adoptedStyleSheets ?? [])]) {
    const rules = rulesOf(sheet)
    if (!rules) continue
    if (left <= 0) break
    for (const rule of sheetRules(rules, sheet, doc, left)) found.set(`${rule.subject}\n${rule.revealed}`, rule)
    left -= rules.length
  }
  return [...found.values()]
}

import { collapseWhitespace, isTag, truncate } from './dom'
import { isSecretField } from './sensitive'

// A label wrapping a <select> must not read as all of its options.
const SKIP_TEXT = new Set(['script', 'style', 'noscript', 'template', 'svg', 'select', 'textarea', 'datalist'])
const BLOCK_GAP = new Set(['br', 'p', 'div', 'li', 'td', 'th', 'tr'])

/** Roles whose name comes from their content (accname 1.2 "name from content"). */
const NAME_FROM_CONTENT = new Set([
  'button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'switch', 'tab', 'tooltip', 'treeitem', 'legend', 'caption',
])

type Clip = { left: number; top: number; right: number; bottom: number } | null

function intersect(a: Clip, b: DOMRect): Clip {
  if (!a) return { left: b.left, top: b.top, right: b.right, bottom: b.bottom }
  return { left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) }
}

/** The value an embedded control shows: a field's text, a select's or combobox's choice, a slider's value. */
export function embeddedValue(el: Element): string | null {
  // A password, card or one-time-code value never names anything.
  if (isSecretField(el)) return ''
  if (isTag(el, 'input')) {
    if (['checkbox', 'radio', 'file', 'hidden', 'image', 'submit', 'reset', 'button', 'password'].includes(el.type)) return ''
    return el.value
  }
  if (isTag(el, 'select')) return Array.from(el.selectedOptions, (o) => o.text).join(' ')
  if (isTag(el, 'textarea')) return el.value
  const role = el.getAttribute('role')
  if (role === 'slider' || role === 'spinbutton' || role === 'scrollbar' || role === 'progressbar') {
    return el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow') ?? ''
  }
  if (role === 'textbox' || role === 'searchbox') return (el as HTMLElement).innerText ?? el.textContent ?? ''
  return null
}

interface Texts {
  /** What a person reads: screen-reader-only text left out, aria-hidden text kept. */
  shown: string
  /** What names it (accname): aria-hidden text left out, screen-reader-only text and embedded values kept. */
  named: string
}

// Within one observation the same element's text is asked for twice (its tree text, then its name): one walk.
let memo: Map<Element, { max: number; texts: Texts }> | null = null
let labelMemo: Map<Element, Element[]> | null = null

/** Runs `fn` with the content texts of elements remembered; the page must not change meanwhile. */
export function withTextMemo<T>(fn: () => T): T {
  const outer = memo
  const outerLabels = labelMemo
  memo ??= new Map()
  labelMemo ??= new Map()
  try {
    return fn()
  } finally {
    memo = outer
    labelMemo = outerLabels
  }
}

/**
 * Text of an element's content, as a person reads it and as it names the element, in one walk: descendant text
 * and image alts, leaving out what is not shown — `display:none`, `visibility:hidden`, and content slid out of a
 * box that clips it (antd's Switch keeps its "开" beside "关" outside its track). Stops once `max` characters are
 * collected, so a clickable wrapper around a whole page costs no more than a button. Looks into an open shadow
 * root when the light DOM has no text. `includeHidden` reads a hidden node aria-labelledby points at, whole.
 */
function walkTexts(el: Element, max: number, opts: { includeHidden?: boolean; skip?: Element } = {}): Texts {
  let shown = ''
  let named = ''
  const limit = max * 2 + 40
  const view = el.ownerDocument.defaultView
  const full = () => shown.length > limit && named.length > limit
  // Whether the current subtree still counts for each text.
  let forShown = true
  let forNamed = true
  const add = (text: string) => {
    if (forShown) shown += text
    if (forNamed) named += text
  }
  const visitElement = (element: Element, clip: Clip): boolean => {
    if (SKIP_TEXT.has(element.localName)) return true
    if (element === opts.skip) return true
    const outerShown = forShown
    const outerNamed = forNamed
    // A block's words stand apart from its neighbours', as a flex row's cells do ("Dana Whitfield" "Invoice #2041");
    // an absolute box (a screen-reader-only span) is blockified without being laid out beside them.
    let gap = BLOCK_GAP.has(element.localName)
    try {
      if (!opts.includeHidden) {
        if (element.getAttribute('aria-hidden') === 'true') forNamed = false
        const style = view?.getComputedStyle(element)
        if (style) {
          gap ||= !style.display.startsWith('inline') && style.display !== 'contents' && style.position !== 'absolute' && style.position !== 'fixed'
          if (style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse') return true
          if (clip) {
            const rect = element.getBoundingClientRect()
            if (rect.width * rect.height > 0) {
              const w = Math.min(clip.right, rect.right) - Math.max(clip.left, rect.left)
              const h = Math.min(clip.bottom, rect.bottom) - Math.max(clip.top, rect.top)
              if (w <= 0 || h <= 0) return true
            }
          }
          if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
            const inner = intersect(clip, element.getBoundingClientRect())!
            // Screen-reader-only text (clipped to a pixel): in a name, not in what a person reads.
            if (Math.max(0, inner.right - inner.left) * Math.max(0, inner.bottom - inner.top) <= 1) forShown = false
            clip = inner
          }
        }
      }
      if (!forShown && !forNamed) return true
      const value = embeddedValue(element)
      if (value !== null && forNamed) {
        // An embedded field names by its value; what it shows is its own (usually no) text.
        named += ` ${value} `
        forNamed = false
      }
      if (element.localName === 'img' || element.localName === 'area') {
        const alt = element.getAttribute('alt')
        if (alt) add(` ${alt} `)
        return true
      }
      if (element.localName === 'input' && (element as HTMLInputElement).type === 'image') return true
      if (gap) add(' ')
      if (element.localName === 'slot') {
        // A slot's text is what the host put into it, not its (fallback) children.
        const assigned = (element as HTMLSlotElement).assignedNodes({ flatten: true })
        if (assigned.length) {
          for (const node of assigned) {
            if (node.nodeType === 3) add(node.nodeValue ?? '')
            else if (node.nodeType === 1 && !visitElement(node as Element, clip)) return false
          }
          return true
        }
      }
      if (!visitChildren(element, clip)) return false
      if (element.shadowRoot && !element.textContent?.trim()) visitChildren(element.shadowRoot, clip)
      if (gap) add(' ')
      return true
    } finally {
      forShown = outerShown
      forNamed = outerNamed
    }
  }
  const visitChildren = (node: Node, clip: Clip): boolean => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) {
        add(child.nodeValue ?? '')
        if (full()) return false
      } else if (child.nodeType === 1 && !visitElement(child as Element, clip)) return false
    }
    return true
  }
  let clip: Clip = null
  if (!opts.includeHidden && view) {
    const style = view.getComputedStyle(el)
    if (style.overflowX !== 'visible' || style.overflowY !== 'visible') clip = intersect(null, el.getBoundingClientRect())
  }
  visitChildren(el, clip)
  if (!shown.trim() && !named.trim() && el.shadowRoot) visitChildren(el.shadowRoot, clip)
  return { shown: truncate(collapseWhitespace(shown), max), named: truncate(collapseWhitespace(named), max) }
}

/** See walkTexts: `aria` picks the name's text, else the shown text. */
export function contentText(el: Element, max: number, walk: { aria: boolean; includeHidden?: boolean; skip?: Element }): string {
  const plain = !walk.includeHidden && !walk.skip
  const cached = plain ? memo?.get(el) : undefined
  const texts = cached && cached.max === max ? cached.texts : walkTexts(el, max, walk)
  if (plain && memo && !cached) memo.set(el, { max, texts })
  return walk.aria ? texts.named : texts.shown
}

function isHiddenNode(el: Element): boolean {
  if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('hidden')) return true
  return typeof el.checkVisibility === 'function' ? !el.checkVisibility({ visibilityProperty: true }) : false
}

/** Text of what aria-labelledby points at; a hidden node still counts, with all of its content. */
export function labelledByText(el: Element, max: number): string {
  const ids = el.getAttribute('aria-labelledby')
  if (!ids) return ''
  const root = el.getRootNode() as Document | ShadowRoot
  const parts: string[] = []
  for (const id of ids.trim().split(/\s+/)) {
    const node = root.getElementById?.(id) ?? el.ownerDocument.getElementById(id)
    if (!node) continue
    const label = collapseWhitespace(node.getAttribute('aria-label') ?? '')
    if (label && node !== el) {
      parts.push(label)
      continue
    }
    const value = embeddedValue(node)
    if (value !== null && node !== el) {
      parts.push(value)
      continue
    }
    parts.push(contentText(node, max, { aria: true, includeHidden: isHiddenNode(node), skip: node === el ? undefined : el }))
  }
  return truncate(collapseWhitespace(parts.join(' ')), max)
}

const LABELABLE = new Set(['input', 'button', 'select', 'textarea', 'meter', 'output', 'progress'])

/** The <label>s of an element: native ones for labelable elements, and `<label for=id>` pointing at an ARIA widget. */
export function labelsOf(el: Element): Element[] {
  if (LABELABLE.has(el.localName)) {
    // Reading `.labels` searches the document: a button is labelled only by `for` its id or by wrapping.
    if (el.localName === 'button' && !el.id && !el.closest('label')) return []
    const labels = (el as HTMLInputElement).labels
    return labels ? Array.from(labels) : []
  }
  if (!el.id || !el.hasAttribute('role')) return []
  const root = el.getRootNode() as Document | ShadowRoot
  try {
    return Array.from(root.querySelectorAll(`label[for="${CSS.escape(el.id)}"]`))
  } catch {
    return []
  }
}

/** Text of the <label>s of an element, embedded fields read as their values, the element itself left out. */
export function labelsText(el: Element, max: number, aria: boolean): string {
  // `.labels` searches the document: within one observation, once per element.
  let labels = labelMemo?.get(el)
  if (!labels) {
    labels = labelsOf(el)
    labelMemo?.set(el, labels)
  }
  if (labels.length === 0) return ''
  return truncate(collapseWhitespace(labels.map((label) => contentText(label, max, { aria, skip: el })).join(' ')), max)
}

/** Whether a role takes its accessible name from its content. */
export function nameFromContent(role: string | undefined): boolean {
  return !!role && NAME_FROM_CONTENT.has(role)
}

import { deepActiveElement, deepQueryAll, isOwnUiRecord, walkComposed } from './dom'

/**
 * What a person could see change on a page while a step ran: its DOM (the document and its open shadow roots),
 * its address, what has focus, a field's value or a box's state, the selected text, or a request it sent.
 * Scrolling is left out: Tandem itself scrolls a target into view before acting, and a scroll the page makes in
 * answer comes with one of these (an anchor changes the address, a lazy list adds rows).
 */
export type PageChange = 'dom' | 'url' | 'focus' | 'value' | 'selection' | 'request'

export interface PageChangeWatch {
  /**
   * What changed since the watch began; empty when nothing a person could see did. Focus and the selection moving
   * into the step's own target (or the control its label stands for) are the step's doing, not the page's answer.
   */
  changes(target?: Element | null): PageChange[]
  stop(): void
}

const CONTROLS = 'input, textarea, select'
/** Beyond this many open shadow roots the rest are not watched (their hosts' own changes still are). */
const MAX_ROOTS = 500

function stateOf(el: Element): string {
  const control = el as HTMLInputElement
  return `${control.value ?? ''}\u0000${control.checked ?? ''}\u0000${(el as HTMLSelectElement).selectedIndex ?? ''}`
}

/** Whether a node is the target, inside it (through open shadow roots too), or the control its label stands for. */
function ownedBy(target: Element, node: Node): boolean {
  const control = target.localName === 'label' ? (target as HTMLLabelElement).control : null
  for (let at: Node | null = node; at; at = at.parentNode ?? (at as ShadowRoot).host ?? null) {
    if (at === target || at === control) return true
  }
  return false
}

/**
 * A record that changed something: nodes added or removed (not Tandem's own), an attribute or a text set to another
 * value. A handler that sets what is already there (a late timer re-selecting the tab that is selected) changes nothing.
 */
function changed(record: MutationRecord): boolean {
  if (isOwnUiRecord(record)) return false
  if (record.type === 'attributes') return (record.target as Element).getAttribute(record.attributeName ?? '') !== record.oldValue
  if (record.type === 'characterData') return (record.target as CharacterData).data !== record.oldValue
  return record.addedNodes.length + record.removedNodes.length > 0
}

function selectionOf(win: Window): unknown[] {
  const s = win.getSelection?.()
  return s ? [s.anchorNode, s.anchorOffset, s.focusNode, s.focusOffset] : []
}

/**
 * Starts watching now, before the step acts. A check that expected one attribute to change (a checkbox's `checked`,
 * an option shown) and found it as it was has no effect to report only when none of these changed either: a click
 * that opened a cascader's next column left `aria-checked` alone and still did what the person wanted.
 */
export function watchPageChanges(win: Window): PageChangeWatch {
  const doc = win.document
  const seen = new Set<PageChange>()
  const url = win.location.href
  const focused = deepActiveElement(doc)
  const selection = selectionOf(win)
  const controls = deepQueryAll(doc, CONTROLS, 5000)
  const values = controls.map(stateOf)
  const Observer = (win as Window & typeof globalThis).MutationObserver ?? MutationObserver
  const observer = new Observer((records: MutationRecord[]) => {
    if (records.some(changed)) seen.add('dom')
  })
  const options = { subtree: true, childList: true, attributes: true, characterData: true, attributeOldValue: true, characterDataOldValue: true }
  observer.observe(doc, options)
  let roots = 0
  walkComposed(doc, {
    enter(el) {
      if (el.shadowRoot && roots++ < MAX_ROOTS) observer.observe(el.shadowRoot, options)
      return true
    },
  })
  const resources = win.performance?.getEntriesByType?.('resource').length ?? 0
  const PerformanceObserverOf = (win as Window & { PerformanceObserver?: typeof PerformanceObserver }).PerformanceObserver
  let requests: PerformanceObserver | undefined
  try {
    requests = PerformanceObserverOf ? new PerformanceObserverOf(() => seen.add('request')) : undefined
    requests?.observe({ type: 'resource' })
  } catch {
    requests = undefined
  }

  return {
    changes(target) {
      const own = (node: unknown) => !!target && node instanceof (win as Window & typeof globalThis).Node && ownedBy(target, node as Node)
      // Records not yet delivered to the callback count too.
      if (observer.takeRecords().some(changed)) seen.add('dom')
      if (win.location.href !== url) seen.add('url')
      const active = deepActiveElement(doc)
      if (active !== focused && !own(active)) seen.add('focus')
      if (controls.some((el, i) => stateOf(el) !== values[i])) seen.add('value')
      const now = selectionOf(win)
      // A caret put in the target, or in the element around a field it typed into, is the step's own.
      const anchor = now[0] as Node | null | undefined
      const around = !!target && !!anchor && anchor.nodeType === 1 && (anchor as Element).contains(target)
      if (now.some((part, i) => part !== selection[i]) && !own(anchor) && !around) seen.add('selection')
      if ((win.performance?.getEntriesByType?.('resource').length ?? 0) > resources) seen.add('request')
      const order: PageChange[] = ['dom', 'url', 'focus', 'value', 'selection', 'request']
      return order.filter((kind) => seen.has(kind))
    },
    stop() {
      observer.disconnect()
      requests?.disconnect()
    },
  }
}

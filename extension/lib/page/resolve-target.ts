import type { Target } from '../../../protocol/action'
import { collectInteractive } from './collect'
import { collapseWhitespace, crossParent, deepQueryAll, isNonContent, walkComposed } from './dom'
import { fail } from './errors'
import { fingerprintOf } from './fingerprint'
import { recallElement, type PageMemory } from './memory'
import { dropProxyHolders } from './proxy'
import { accessibleName, isSemanticInteractive, labelText, roleOf, shortText, visibleLabel } from './semantics'
import { isProxyBox, visibleProxy } from './visibility'

const NAME_MAX = 300

function byIndex(target: Extract<Target, { by: 'index' }>, memory: PageMemory): Element {
  const recalled = recallElement(memory, target.value)
  if (recalled.state === 'unknown') fail('TARGET_NOT_FOUND', `there is no element [${target.value}] in the last observation; observe the page again`)
  if (recalled.state === 'gone' || !recalled.element.isConnected) {
    fail('TARGET_STALE', `element [${target.value}] is no longer on the page; observe the page again`)
  }
  const expected = target.fingerprint ?? recalled.fingerprint
  // The element may have been reused for other content (a re-rendered list): same node, different thing.
  if (fingerprintOf(recalled.element) !== expected || recalled.fingerprint !== expected) {
    fail('TARGET_STALE', `element [${target.value}] changed since it was observed; observe the page again`)
  }
  return recalled.element
}

function bySelector(doc: Document, selector: string): Element {
  let matches: Element[]
  try {
    matches = deepQueryAll(doc, selector, 50)
  } catch {
    fail('TARGET_NOT_FOUND', 'the selector is not valid CSS')
  }
  const element = matches.find((el) => visibleProxy(el)) ?? matches[0]
  if (!element) fail('TARGET_NOT_FOUND', 'no element matches the selector')
  return element
}

type Scored = { el: Element; names: string[]; visible: boolean }

/**
 * Best match of `wanted` among candidates: exact name first, then case-insensitive exact, then
 * case-insensitive contains (shortest name wins: "Save" prefers "Save" over "Save and publish").
 * Visible candidates beat hidden ones at every step.
 */
function bestMatch(candidates: Scored[], wanted: string): Element | null {
  const exact = collapseWhitespace(wanted)
  const lower = exact.toLowerCase()
  const ordered = [...candidates.filter((c) => c.visible), ...candidates.filter((c) => !c.visible)]
  const pick = (test: (name: string) => boolean) => ordered.find((c) => c.names.some(test))?.el ?? null
  const found = pick((n) => n === exact) ?? pick((n) => n.toLowerCase() === lower)
  if (found) return found
  let best: { el: Element; length: number; visible: boolean } | null = null
  for (const c of ordered) {
    for (const name of c.names) {
      if (!name.toLowerCase().includes(lower)) continue
      if (!best || (c.visible && !best.visible) || (c.visible === best.visible && name.length < best.length)) {
        best = { el: c.el, length: name.length, visible: c.visible }
      }
    }
  }
  return best?.el ?? null
}

function namesForText(el: Element, shown: Element | undefined): string[] {
  const names = [
    visibleLabel(el, NAME_MAX),
    el.getAttribute('aria-label') ?? '',
    labelText(el, NAME_MAX),
    el.getAttribute('placeholder') ?? '',
    el.getAttribute('title') ?? '',
    el.getAttribute('alt') ?? '',
    accessibleName(el, NAME_MAX),
    // A transparent combobox is read where it is drawn: "请选择城市" in its selector box.
    shown && isProxyBox(el, shown) ? shortText(shown, NAME_MAX) : '',
  ]
  return names.map(collapseWhitespace).filter(Boolean)
}

/** The interactive elements with what a person sees of them, the boxes drawn for transparent controls left out. */
function scoredControls(elements: Element[], names: (el: Element, shown: Element | undefined) => string[]): Scored[] {
  const seen = elements.map((el) => ({ el, shown: visibleProxy(el)?.shown }))
  const withBox = seen.filter((c): c is { el: Element; shown: Element } => !!c.shown)
  dropProxyHolders(withBox)
  const kept = new Set(withBox.map((c) => c.el))
  return seen
    .filter((c) => !c.shown || kept.has(c.el))
    .map(({ el, shown }) => ({ el, names: names(el, shown), visible: !!shown }))
}

/** Closest interactive element around a piece of text (the span inside a button means the button). */
function interactiveAround(el: Element, interactive: Set<Element>): Element {
  for (let node: Node | null = el; node; node = crossParent(node)) {
    if (node.nodeType === 1 && (interactive.has(node as Element) || isSemanticInteractive(node as Element))) return node as Element
  }
  return el
}

function byText(doc: Document, wanted: string): Element {
  const { elements } = collectInteractive(doc)
  const scored = scoredControls(elements, namesForText)
  const hit = bestMatch(scored, wanted)
  if (hit) return hit
  // Not the name of any control: look for the text anywhere (a heading, a label-less card) and climb to its control.
  const lower = collapseWhitespace(wanted).toLowerCase()
  const holders: Scored[] = []
  walkComposed(doc, {
    enter(el) {
      if (isNonContent(el)) return false
      let own = ''
      for (let child = el.firstChild; child; child = child.nextSibling) if (child.nodeType === 3) own += child.nodeValue
      own = collapseWhitespace(own)
      if (own && own.toLowerCase().includes(lower)) holders.push({ el, names: [own], visible: !!visibleProxy(el) })
      return true
    },
  })
  const holder = bestMatch(holders, wanted)
  if (!holder) fail('TARGET_NOT_FOUND', 'no element with that text, label or placeholder')
  return interactiveAround(holder, new Set(elements))
}

/** "button:Place order" → role button named "Place order"; "checkbox" → the first checkbox. */
function byRole(doc: Document, value: string): Element {
  const colon = value.indexOf(':')
  const role = (colon < 0 ? value : value.slice(0, colon)).trim().toLowerCase()
  const name = colon < 0 ? '' : value.slice(colon + 1).trim()
  const { elements } = collectInteractive(doc)
  const withRole = new Set(elements)
  if (!elements.some((el) => roleOf(el) === role)) {
    // Roles that are not controls (heading, img, dialog…): look at everything.
    for (const el of deepQueryAll(doc, '*')) if (roleOf(el) === role) withRole.add(el)
  }
  const scored = scoredControls([...withRole].filter((el) => roleOf(el) === role), (el) => [accessibleName(el, NAME_MAX)])
  const hit = name ? bestMatch(scored, name) : (scored.find((c) => c.visible) ?? scored[0])?.el
  if (!hit) fail('TARGET_NOT_FOUND', `no ${role} ${name ? `named "${name}" ` : ''}on the page`)
  return hit
}

/** The element an action names. Index targets must still be the element that was observed. */
export function resolveTarget(win: Window, target: Target, memory: PageMemory): Element {
  if (target.by === 'index') return byIndex(target, memory)
  const doc = win.document
  const el = target.by === 'selector' ? bySelector(doc, target.value) : target.by === 'text' ? byText(doc, target.value) : byRole(doc, target.value)
  if (target.fingerprint && fingerprintOf(el) !== target.fingerprint) {
    fail('TARGET_STALE', 'the element found no longer matches the fingerprint it was chosen with; observe the page again')
  }
  return el
}

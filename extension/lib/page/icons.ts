import { canonicalIconName, classWords, iconNamesOfClass } from '../../../protocol/icon-names'
import { collapseWhitespace, truncate } from './dom'

// Material Icons and Symbols draw the icon from the text itself (a ligature: `delete`, `send`).
const LIGATURE_CLASS = /(^|\s)material-(icons|symbols)/
const MAX_NODES = 40
const MAX_NAMES = 3

/**
 * The names of the icons an element shows, read as words (`anticon-delete`, `DeleteIcon` and `delete` are all
 * `delete`; `fa-paper-plane` is `paper-plane`), space-separated; '' when none. An icon-only button has no words for
 * the model or the risk rules to read: its icon is what says what it does (protocol/icon-names.ts reads these names).
 */
export function iconNamesOf(el: Element): string {
  const names: string[] = []
  const add = (name: string | null | undefined) => {
    const clean = canonicalIconName(collapseWhitespace(name ?? ''))
    if (clean && clean.length <= 60 && !names.includes(clean) && names.length < MAX_NAMES) names.push(clean)
  }
  const look = (node: Element) => {
    const className = node.getAttribute('class') ?? ''
    for (const name of iconNamesOfClass(className)) add(name)
    add(node.getAttribute('data-icon'))
    const testId = node.getAttribute('data-testid')
    if (testId && /[a-z]Icon$/.test(testId)) add(testId)
    if (LIGATURE_CLASS.test(className)) add(node.textContent)
    if (node.localName === 'svg') add(node.querySelector(':scope > title')?.textContent)
    if (node.localName === 'use') add((node.getAttribute('href') ?? node.getAttribute('xlink:href') ?? '').split('#')[1])
  }
  look(el)
  const walker = el.ownerDocument.createTreeWalker(el, 1)
  for (let seen = 0, node = walker.nextNode(); node && seen < MAX_NODES && names.length < MAX_NAMES; node = walker.nextNode(), seen++) {
    look(node as Element)
  }
  return truncate(names.join(' '), 120)
}

/**
 * The name of a control that shows nothing but a picture: its icon's, else what its own classes call it (a toolbar's
 * `ql-underline`, an inbox's `icon delete`, a rating's `star`), the page author's only word for it.
 */
export function pictureName(el: Element): string {
  return iconNamesOf(el) || classWords(el.getAttribute('class') ?? '')
}

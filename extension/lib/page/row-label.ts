import { contentText } from './accname'
import { collapseWhitespace, truncate } from './dom'
import { isSemanticInteractive, roleOf } from './semantics'

/** Controls with no words of their own: a form row or list cell names them when nothing else does. */
const ROW_NAMED = new Set(['switch', 'checkbox', 'radio', 'slider'])
const ROW_DEPTH = 5
const ROW_MAX = 40

/** Whether `root` holds a control other than `el` (and what is inside `el`): then its words are not `el`'s alone. */
function holdsOtherControl(root: Element, el: Element): boolean {
  for (let child = root.firstElementChild; child; child = child.nextElementSibling) {
    if (child === el) continue
    if (isSemanticInteractive(child) || holdsOtherControl(child, el)) return true
  }
  return false
}

/**
 * The label a person reads beside a control that has no accessible name: the title of its form item, Vant cell or
 * settings row (antd, TDesign and Vant put "消息免打扰" in a sibling box, not in a `<label for>` the switch can use).
 * The nearest ancestor, a few levels up, whose other words are short and which holds no other control.
 */
export function rowLabel(el: Element, max = ROW_MAX): string {
  if (!ROW_NAMED.has(roleOf(el) ?? '')) return ''
  let node = el.parentElement
  for (let depth = 0; node && depth < ROW_DEPTH; depth++, node = node.parentElement) {
    if (node.localName === 'body' || node.localName === 'form') return ''
    const text = collapseWhitespace(contentText(node, ROW_MAX + 1, { aria: false, skip: el }))
    if (!text) continue
    if (text.length > ROW_MAX || holdsOtherControl(node, el)) return ''
    return truncate(text, max)
  }
  return ''
}

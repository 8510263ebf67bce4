import { isSemanticInteractive } from './semantics'
import { isProxyBox } from './visibility'

const HOLDER_DEPTH = 6

/**
 * A transparent control listed through the box drawn for it (antd's `.ant-select-selector`, Element Plus's
 * `.el-select__wrapper`) is listed once: the clickable box around it, which would read as a bare `<div>请选择城市`,
 * goes. Removes those holders from `items` in place.
 */
export function dropProxyHolders<T extends { el: Element; shown: Element }>(items: T[]): void {
  const holders = new Set<Element>()
  for (const { el, shown } of items) {
    if (!isProxyBox(el, shown)) continue
    let node = el.parentElement
    for (let depth = 0; node && depth < HOLDER_DEPTH; depth++, node = node.parentElement) {
      if (!isSemanticInteractive(node)) holders.add(node)
      if (node === shown.parentElement?.parentElement) break
    }
  }
  if (holders.size === 0) return
  for (let i = items.length - 1; i >= 0; i--) if (holders.has(items[i]!.el)) items.splice(i, 1)
}

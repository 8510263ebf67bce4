import { actionableSoon, ensureActionable } from '../actionability'
import { collapseWhitespace, truncate } from '../dom'
import { fail } from '../errors'
import { dispatchClick } from '../events'
import { isShown } from '../visibility'
import { settleAfter } from './settle-after'

/** Elements that appeared, or were shown by a style, class or `hidden` change, while `open` ran and the page settled. */
async function whatOpens(win: Window, open: () => void): Promise<Element[]> {
  const appeared = new Set<Element>()
  const observer = new (win as Window & typeof globalThis).MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'childList') r.addedNodes.forEach((n: Node) => n.nodeType === 1 && appeared.add(n as Element))
      else if (r.target.nodeType === 1) appeared.add(r.target as Element)
    }
  })
  observer.observe(win.document, { childList: true, subtree: true, attributes: true, attributeFilter: ['style', 'class', 'hidden'] })
  try {
    await settleAfter(win, open, 1000)
  } finally {
    observer.disconnect()
  }
  return [...appeared].filter((e) => e.isConnected)
}

const textOf = (el: Element) => collapseWhitespace(el.textContent ?? '')

/**
 * `select` on a box that says nothing of itself to assistive technology (TDesign's readonly input, a hand-made
 * dropdown, selectric's wrapper): opened as a person opens it, by a click, and the option picked among what that
 * click brought up — elsewhere on the page, or shown inside the box — by its words. The value the box shows
 * afterwards is the proof, as for any combobox.
 */
export async function selectFromPopup(win: Window, box: Element, wanted: string, describe: (el: Element) => string): Promise<string> {
  const at = ensureActionable(box)
  // A list kept inside the box it opens from (selectric's, shown by a class on its wrapper) is what turns shown there.
  const hiddenInside = Array.from(box.querySelectorAll('*')).filter((e) => !isShown(e))
  const opened = await whatOpens(win, () => dispatchClick(at.hit, at.x, at.y))
  const want = collapseWhitespace(wanted).toLowerCase()
  const outside = opened.filter((root) => !root.contains(box) && !box.contains(root))
  const shownNow = hiddenInside.filter((e) => e.isConnected && box.contains(e))
  const candidates = [...outside.flatMap((root) => [root, ...Array.from(root.querySelectorAll('*'))]), ...shownNow].filter((e) => textOf(e) && isShown(e))
  // The innermost element whose words are exactly the option's: the option itself, not the list that holds it.
  const exact = candidates.filter((e) => textOf(e).toLowerCase() === want)
  const option = exact.find((e) => !exact.some((inner) => inner !== e && e.contains(inner)))
  if (!option) {
    const seen = [...new Set(candidates.filter((e) => e.children.length === 0).map(textOf))].slice(0, 12)
    fail('TARGET_NOT_FOUND', `no option like "${truncate(wanted, 80)}" appeared after opening ${describe(box)}${seen.length ? `; it showed ${seen.map((s) => `"${truncate(s, 40)}"`).join(', ')}` : ''}`)
  }
  const hit = await actionableSoon(option, 500)
  await settleAfter(win, () => dispatchClick(hit.hit, hit.x, hit.y), 1000)
  return textOf(option)
}

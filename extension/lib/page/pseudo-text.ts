import { collapseWhitespace } from './dom'

// Icon fonts draw their glyphs from the Private Use Area: a character that means nothing read as text.
const NOT_READABLE = /[\ue000-\uf8ff\u{f0000}-\u{10ffff}]/gu
const QUOTED = /"((?:[^"\\]|\\.)*)"/g
// `url("…")`, `attr(…)`, `counter(…)`: a picture or a value, whatever strings they quote.
const FUNCTION = /[a-z-]+\((?:[^()"]|"(?:[^"\\]|\\.)*")*\)/gi

/**
 * The symbol or words CSS draws into an element with `::before`/`::after` (TodoMVC's `.destroy::after { content: '×' }`):
 * what a person sees on a control that has no text of its own. Pictures (`content: url(…)`), counters and icon-font
 * glyphs are no words. Read only for controls with nothing else to show: each read computes two pseudo-elements' styles.
 */
export function pseudoText(el: Element): string {
  const view = el.ownerDocument.defaultView
  if (!view) return ''
  let text = ''
  for (const which of ['::before', '::after']) {
    const content = view.getComputedStyle(el, which).content
    if (!content || content === 'none' || content === 'normal') continue
    for (const match of content.replace(FUNCTION, '').matchAll(QUOTED)) text += ` ${match[1]!.replace(/\\(.)/g, '$1')}`
  }
  return collapseWhitespace(text.replace(NOT_READABLE, ''))
}

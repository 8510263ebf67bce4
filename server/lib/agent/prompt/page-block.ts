import type { Observation } from '#protocol'
import { cut, cutLines } from './tokens'

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/[\r\n]+/g, ' ')

/** Page content must not be able to close (or open) the block it is quoted in. */
export const defuse = (s: string) => s.replace(/<\/?\s*(untrusted_page|page_text)\b[^>]*>/gi, '[tag removed]')

export interface PageLimits {
  /** Characters of the element tree (cut at a line break). */
  treeChars: number
  /** Characters of the page's visible text; 0 leaves the text out. */
  textChars: number
}

/** The page in DESIGN's untrusted block, with its visible text and scroll position after it. */
export function renderPage(observation: Observation, limits: PageLimits): { text: string; tree: string } {
  const tree = cutLines(defuse(observation.elementTree || '(no interactive elements)'), limits.treeChars)
  const parts = [
    `<untrusted_page url="${escapeAttr(cut(observation.url, 2000))}" title="${escapeAttr(cut(observation.title, 300))}">\n${tree.text}\n</untrusted_page>`,
  ]
  const tabs = renderTabs(observation)
  if (tabs) parts.push(tabs)
  const notes: string[] = []
  for (const frame of observation.frames ?? []) {
    notes.push(
      frame.why === 'not-granted'
        ? `A frame from ${frame.origin} was not read: the person has not granted that site.`
        : `A frame from ${frame.origin} (another site) was not read: its elements are not listed.`,
    )
  }
  if (tree.omittedLines) notes.push(`${tree.omittedLines} more elements are not shown: scroll, or extract what you need.`)
  if (observation.scroll) {
    const { pixelsAbove, pixelsBelow } = observation.scroll
    notes.push(`Scroll: ${Math.round(pixelsAbove)} px above, ${Math.round(pixelsBelow)} px below the viewport.`)
  }
  if (notes.length) parts.push(notes.join(' '))
  if (observation.visibleTextSnippet && limits.textChars > 0) {
    parts.push(`<page_text>\n${cut(defuse(observation.visibleTextSnippet), limits.textChars)}\n</page_text>`)
  }
  return { text: parts.join('\n'), tree: tree.text }
}

/**
 * The task's tabs on one line, compactly: `Tabs: [1] Shop – shop.test/search · [2]* (current, opened by the last
 * step) Item – shop.test/item/7`. Titles and addresses are the sites' words, quoted like the page's.
 */
const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}…`)

export function renderTabs(observation: Pick<Observation, 'tabs'>): string {
  const tabs = observation.tabs
  if (!tabs?.length) return ''
  const shown = tabs.slice(0, 12).map((t) => {
    const where = t.active ? (t.opened ? ' (current, opened by the last step)' : ' (current)') : ''
    const url = t.url.replace(/^https?:\/\//, '')
    return `[${t.tab}]${where} ${defuse(clip(t.title, 60)).replace(/[\r\n]+/g, ' ')} – ${clip(url, 80)}`
  })
  const more = tabs.length > shown.length ? ` · ${tabs.length - shown.length} more` : ''
  return `Tabs: ${shown.join(' · ')}${more}`
}

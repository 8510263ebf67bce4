/** What the README and docs pages are made of, read the way GitHub renders them: enough to keep them honest. */

const FENCE = /^```(\S*)\s*$/

/** Each fenced block's language and lines. */
export function fencedBlocks(markdown: string): { lang: string; lines: string[] }[] {
  const blocks: { lang: string; lines: string[] }[] = []
  let open: { lang: string; lines: string[] } | null = null
  for (const line of markdown.split('\n')) {
    const fence = FENCE.exec(line.trim())
    if (fence && !open) open = { lang: fence[1]!, lines: [] }
    else if (fence && open) {
      blocks.push(open)
      open = null
    } else open?.lines.push(line)
  }
  return blocks
}

/** Every line a person would type from the page's `sh` blocks, as written. */
export function shellLines(markdown: string): string[] {
  return fencedBlocks(markdown)
    .filter((b) => b.lang === 'sh')
    .flatMap((b) => b.lines.map((l) => l.trim()).filter(Boolean))
}

/** The prose of a page, fenced blocks left out: headings there are shell comments, not headings. */
function outsideFences(markdown: string): string[] {
  const lines: string[] = []
  let inside = false
  for (const line of markdown.split('\n')) {
    if (FENCE.test(line.trim())) inside = !inside
    else if (!inside) lines.push(line)
  }
  return lines
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** The anchors a page's headings give, a repeated heading numbered as GitHub numbers it. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const found = new Set<string>()
  for (const line of outsideFences(markdown)) {
    const m = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)
    if (!m) continue
    const base = anchorOf(m[1]!)
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    found.add(n ? `${base}-${n}` : base)
  }
  return found
}

/** Every link and image source of a page that is not on the web: the targets a checkout must hold. */
export function localLinks(markdown: string): string[] {
  const text = outsideFences(markdown).join('\n')
  const targets = [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g), ...text.matchAll(/<img[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!)
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t))
}

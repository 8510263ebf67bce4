import type { ElementInfo } from '#protocol'

const LINE = /^\s*\*?\[(\d+)\]<([A-Za-z][\w-]*)([^>]*)>(.*)$/
const ATTR = /([A-Za-z_:][\w:.-]*)(?:=("([^"]*)"|'([^']*)'|[^\s"']+))?/g

/**
 * The element an index names, read back from the tree line the model saw (`[N]<tag attrs>text`), for when the
 * observation carried no structured element list: the risk gate must judge what the model was shown.
 */
export function elementFromTree(tree: string, index: number): ElementInfo | undefined {
  for (const line of tree.split('\n')) {
    const match = LINE.exec(line)
    if (!match || Number(match[1]) !== index) continue
    const attributes: Record<string, string> = {}
    for (const a of match[3].matchAll(ATTR)) attributes[a[1].toLowerCase()] = a[3] ?? a[4] ?? (a[2] ?? '').replace(/^["']|["']$/g, '')
    const text = match[4].replace(/<\/[A-Za-z][\w-]*>\s*$/, '').trim()
    return { index, tag: match[2].toLowerCase(), ...(attributes.role ? { role: attributes.role } : {}), ...(text ? { text } : {}), attributes }
  }
  return undefined
}

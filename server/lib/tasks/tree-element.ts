import type { ElementInfo, Target } from '#protocol'

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

const SIMPLE_SELECTOR = /^([a-z][\w-]*)?((?:\[[\w-]+(?:[~^$*|]?=(?:"[^"]*"|'[^']*'|[^\]]*))?\])*)$/i
const ATTR_PART = /\[([\w-]+)(?:=(?:"([^"]*)"|'([^']*)'|([^\]]*)))?\]/g
const squash = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim().toLowerCase()

/**
 * The element a script's selector or text names, found among the elements the extension last observed, so the
 * risk gate judges a replayed step on the real element (a search box) instead of blind. Only a target that names
 * exactly one element counts; selectors are understood as far as the observation can tell them apart (a tag and
 * attributes the extension reports: `input[name=q]`, `[type=search]`, `button[aria-label="Send"]`).
 */
export function elementForTarget(target: Target | undefined, elements: ElementInfo[] | undefined): ElementInfo | undefined {
  if (!target || target.by === 'index' || !elements?.length) return undefined
  const matches = target.by === 'selector' ? elements.filter(selectorMatcher(target.value)) : elements.filter(named(String(target.value)))
  return matches.length === 1 ? matches[0] : undefined
}

function named(value: string): (el: ElementInfo) => boolean {
  const wanted = squash(value)
  return (el) => [el.text, el.attributes?.['aria-label'], el.attributes?.placeholder, el.attributes?.title].some((t) => t && squash(t) === wanted)
}

function selectorMatcher(selector: string): (el: ElementInfo) => boolean {
  const match = SIMPLE_SELECTOR.exec(selector.trim())
  if (!match || (!match[1] && !match[2])) return () => false
  const tag = match[1]?.toLowerCase()
  const attrs = [...(match[2] ?? '').matchAll(ATTR_PART)].map((a) => ({ name: a[1]!.toLowerCase(), value: a[2] ?? a[3] ?? a[4]?.trim() }))
  // An exact attribute test only: a partial one ([name^=q]) cannot be told from what the observation keeps.
  if (/[~^$*|]=/.test(match[2] ?? '')) return () => false
  return (el) =>
    (!tag || el.tag === tag) &&
    attrs.every(({ name, value }) => {
      const have = name === 'role' ? (el.role ?? el.attributes?.role) : el.attributes?.[name]
      return have !== undefined && (value === undefined || have === value)
    })
}

/** An action's target as the audit holds it. */
export interface TargetLike {
  by?: string
  value?: unknown
}

/** The element the server resolved an index to, as the audit holds it. */
export interface ElementLike {
  tag?: string
  role?: string
  text?: string
  attributes?: Record<string, string>
}

const clip = (text: string, max = 80) => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat
}

/** The name a person would give the element: its text, label, placeholder or name, then its kind. */
function elementName(element: ElementLike): string | undefined {
  const a = element.attributes ?? {}
  const name = element.text || a['aria-label'] || a.placeholder || a.title || a.alt || a.name || a.value
  if (!name?.trim()) return undefined
  return `“${clip(name)}”`
}

function elementKind(element: ElementLike): string | undefined {
  const type = element.attributes?.type
  if (element.role) return element.role
  if (element.tag === 'input' && type) return `${type} field`
  return element.tag
}

/**
 * An action's target in words: “Place order” (button), the visible text a script named, or the CSS
 * selector as a last resort; an index alone says nothing to a reader, so it is shown as element #N.
 */
export function describeTarget(target: TargetLike | undefined, element?: ElementLike): string | undefined {
  if (element) {
    const name = elementName(element)
    const kind = elementKind(element)
    if (name) return kind ? `${name} (${kind})` : name
    if (kind && target?.by !== 'selector') return `${kind}${target?.by === 'index' ? ` #${String(target.value)}` : ''}`
  }
  if (!target || target.value === undefined || target.value === '') return undefined
  const value = String(target.value)
  switch (target.by) {
    case 'text':
      return `“${clip(value)}”`
    case 'role':
      return value
    case 'index':
      return `#${value}`
    default:
      return clip(value, 120)
  }
}

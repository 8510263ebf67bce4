import { targetWords } from '#protocol'
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
 * An action's target in words: “Place order” (button), the visible text or name a script named it by; never a CSS
 * selector (the page's code, not what a person reads: the element's name comes from what the page said when the
 * step ran); an index alone says nothing to a reader, so it is shown as element #N.
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
    case 'role': {
      // `button:Send message` is said as the button's name; a role alone says what kind of element it was.
      const name = targetWords({ by: 'role', value })
      return name ? `“${clip(name)}”` : value
    }
    case 'index':
      return `#${value}`
    default:
      return undefined
  }
}

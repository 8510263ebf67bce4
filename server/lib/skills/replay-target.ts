import type { ElementInfo, Target } from '#protocol'

/** How a script names an element: a CSS selector, visible text, or a role; never an index. */
export type ReplayTarget = { selector: string } | { text: string } | { target: Extract<Target, { by: 'text' | 'role' }> }

const MAX_VALUE = 200
// Ids and data values that change on every build or render (react-123, :r5:, ember42, 9f86d081…) name nothing.
const GENERATED = /\d{3,}|^_|:|^(ember|react|mui|radix|headlessui|ng-|vue-)|(?=[a-f]*\d)[0-9a-f]{8,}/i
const DATA_FIRST = ['data-testid', 'data-test', 'data-test-id', 'data-qa', 'data-cy']
const DATA_NEVER = /^data-(reactid|v-|styled|emotion|radix|state|headlessui|index|key|id$)/

/** A CSS string: quotes and backslashes escaped, line breaks written as CSS escapes. */
const css = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\a ')}"`
const usable = (value: string | undefined): value is string => !!value && value.trim().length > 0 && value.length <= MAX_VALUE
const cleanText = (value: string | undefined) => value?.replace(/\s+/g, ' ').trim()

/**
 * The most robust CSS selector for an element the audit recorded, from what identifies it across page loads:
 * its id, name, aria-label, placeholder or data-* attributes (in that order). Undefined when it has none.
 */
export function selectorFor(element: ElementInfo): string | undefined {
  const tag = /^[a-z][a-z0-9-]*$/i.test(element.tag) ? element.tag.toLowerCase() : ''
  const a = element.attributes ?? {}
  if (usable(a.id) && !GENERATED.test(a.id)) return /^[A-Za-z][\w-]*$/.test(a.id) ? `#${a.id}` : `${tag}[id=${css(a.id)}]`
  for (const name of ['name', 'aria-label', 'placeholder']) if (usable(a[name])) return `${tag}[${name}=${css(a[name])}]`
  const data = [
    ...DATA_FIRST.filter((k) => k in a),
    ...Object.keys(a).filter((k) => k.startsWith('data-') && !DATA_FIRST.includes(k) && !DATA_NEVER.test(k)).sort(),
  ]
  for (const key of data) if (usable(a[key]) && !GENERATED.test(a[key])) return `${tag}[${key}=${css(a[key])}]`
  return undefined
}

/**
 * How a saved script names the element an action was aimed at: a script's own selector or text as it was,
 * else (an index, which belongs to one observation) a selector or the visible text of the recorded element.
 * `typed`: the action types text, so a text target must be spelled out (`text` would be what gets typed).
 */
export function replayTargetOf(target: Target | undefined, element: ElementInfo | undefined, typed: boolean): ReplayTarget | undefined {
  if (!target) return undefined
  const byText = (value: string): ReplayTarget => (typed ? { target: { by: 'text', value } } : { text: value })
  switch (target.by) {
    case 'selector':
      return { selector: target.value }
    case 'text':
      return byText(target.value)
    case 'role':
      return { target: { by: 'role', value: target.value } }
  }
  if (!element) return undefined
  const selector = selectorFor(element)
  if (selector) return { selector }
  const text = cleanText(element.text) ?? cleanText(element.attributes?.title) ?? cleanText(element.attributes?.alt)
  if (usable(text)) return byText(text)
  const tag = /^[a-z][a-z0-9-]*$/i.test(element.tag) ? element.tag.toLowerCase() : undefined
  const type = element.attributes?.type
  if (tag && usable(type) && /^[a-z-]+$/i.test(type)) return { selector: `${tag}[type=${css(type)}]` }
  return undefined
}

import { labelText, visibleLabel } from './semantics'

/** An element as a person reads it: what it says, its label, accessible name, placeholder or title; never a value. */
export function readableName(el: Element, redact: (text: string) => string): string | undefined {
  const attr = (name: string) => el.getAttribute(name)?.replace(/\s+/g, ' ').trim()
  const name = visibleLabel(el, 120) || labelText(el, 120) || attr('aria-label') || attr('placeholder') || attr('title') || attr('alt')
  return name ? redact(name) : undefined
}

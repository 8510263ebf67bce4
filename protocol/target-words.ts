import type { Target } from './action'

/**
 * The words a target names its element by, as a person would read them: a text target's text, a role target's
 * accessible name (`button:Send message` → `Send message`; a role alone names nothing), and no words at all for an
 * index or a CSS selector: `#send` is the page's code, not what the button says.
 */
export function targetWords(target: Target | undefined): string | undefined {
  if (!target) return undefined
  if (target.by === 'text') return target.value.trim() || undefined
  if (target.by !== 'role') return undefined
  const colon = target.value.indexOf(':')
  return colon < 0 ? undefined : target.value.slice(colon + 1).trim() || undefined
}

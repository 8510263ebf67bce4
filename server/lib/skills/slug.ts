import { createHash } from 'node:crypto'

const MAX = 60

/** A name as two people would call it the same: composed the same way, spaces collapsed, case ignored. */
export const nameKey = (name: string): string => name.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase()

/** Six letters and digits that stand for a name: the same name gives them again, another name others. */
const shortHash = (name: string) => createHash('sha256').update(nameKey(name)).digest('hex').slice(0, 6)

/**
 * A skill slug from a name or goal: its ASCII words, lowercased and joined by '-'. A name with letters beyond ASCII
 * (Chinese, Cyrillic…) would lose them, and two such names would meet in one slug, so a short hash of the whole
 * name is added (`skill-3fa9c1` for a name of Chinese only). The slug is the folder and API key, never shown.
 */
export function slugFrom(text: string): string | undefined {
  const ascii = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
  const words = ascii.toLowerCase().match(/[a-z0-9]+/g) ?? []
  const hasLetter = words.some((w) => /[a-z]/.test(w))
  const beyondAscii = /[^\x00-\x7f]/.test(ascii.replace(/[^\p{L}\p{N}]/gu, ''))
  if (!hasLetter && !beyondAscii) return undefined
  let slug = ''
  for (const word of hasLetter ? words : []) {
    const next = slug ? `${slug}-${word}` : word
    if (next.length > MAX) break
    slug = next
  }
  if (hasLetter && !slug) slug = words[0]!.slice(0, MAX)
  return beyondAscii ? `${slug || 'skill'}-${shortHash(text)}` : slug
}

/** The slug for a task's skill when no name gives one: task-<id>. */
export const taskSlug = (taskId: string) => `task-${taskId.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')}`.replace(/-+$/, '')

/** `base`, else `base-2`, `base-3`…: the first slug `taken` says is free. */
export async function freeSlug(base: string, taken: (slug: string) => Promise<boolean>): Promise<string> {
  if (!(await taken(base))) return base
  for (let n = 2; ; n++) {
    const slug = `${base.slice(0, 120)}-${n}`
    if (!(await taken(slug))) return slug
  }
}

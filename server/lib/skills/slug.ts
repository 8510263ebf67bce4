const MAX = 60

/**
 * A skill slug from a name or goal: its ASCII words, lowercased and joined by '-'. Undefined when the text has
 * no ASCII word with a letter (a goal written in Chinese), so the caller can fall back to the task id.
 */
export function slugFrom(text: string): string | undefined {
  const words = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().match(/[a-z0-9]+/g) ?? []
  if (!words.some((w) => /[a-z]/.test(w))) return undefined
  let slug = ''
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word
    if (next.length > MAX) break
    slug = next
  }
  return slug || words[0]!.slice(0, MAX)
}

/** The slug for a task's skill when no name gives one: task-<id>. */
export const taskSlug = (taskId: string) => `task-${taskId.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')}`.replace(/-+$/, '')

import { createHash } from 'node:crypto'
import type { Storage } from 'unstorage'
import type { z } from 'zod'

export interface KeptRulesOptions {
  /** Other servers write to the same storage (Redis): read it on every question instead of remembering it here. */
  shared?: boolean
}

interface KeptRulesShape<Rule, Entry extends Rule & { at: string; by: string }> {
  /** Where the rules live in storage: one key per rule under it. */
  prefix: string
  /** How a stored entry is read back; one that no longer parses is skipped. */
  schema: z.ZodType<Entry>
  /** What tells two rules apart (the same identity is the same rule, however it was spelled). */
  identity: (rule: Rule) => unknown[]
  /** The rule as it is kept. */
  normalise: (rule: Rule) => Rule
  /** How many are kept; the oldest go first. */
  max: number
}

/**
 * Rules a person made that outlive a task (writes always allowed, harmless kinds always asked about), in `storage`:
 * the data dir or Redis, as tasks are. One key per rule, so two servers adding rules at once never overwrite each
 * other's list.
 */
export function createKeptRules<Rule, Entry extends Rule & { at: string; by: string }>(
  storage: Storage,
  shape: KeptRulesShape<Rule, Entry>,
  options: KeptRulesOptions = {},
) {
  const keyOf = (rule: Rule) => `${shape.prefix}:${createHash('sha256').update(JSON.stringify(shape.identity(rule))).digest('hex').slice(0, 32)}`
  const newestFirst = (a: Entry, b: Entry) => b.at.localeCompare(a.at)

  async function readAll(): Promise<Entry[]> {
    const items = await storage.getItems(await storage.getKeys(shape.prefix))
    return items.flatMap((item) => {
      const parsed = shape.schema.safeParse(item.value)
      return parsed.success ? [parsed.data] : []
    })
  }

  let cached: Entry[] | undefined
  const read = async () => (options.shared || !cached ? (cached = (await readAll()).sort(newestFirst)) : cached)

  return {
    /** The newest first, at most `max`. */
    list: read,

    /** Adds the rules not kept yet; one kept already keeps the day it was first made, and by whom. */
    async add(rules: Rule[], by: string) {
      const at = new Date().toISOString()
      const known = new Set((await read()).map(keyOf))
      for (const rule of rules) {
        const key = keyOf(rule)
        if (known.has(key)) continue
        known.add(key)
        await storage.setItem(key, { ...shape.normalise(rule), at, by } as never)
      }
      cached = undefined
      const all = await read()
      for (const old of all.slice(shape.max)) await storage.removeItem(keyOf(old))
      if (all.length > shape.max) cached = all.slice(0, shape.max)
    },

    /** Removes one rule, and answers the list after. */
    async forget(rule: Rule) {
      await storage.removeItem(keyOf(rule))
      cached = undefined
      return read()
    },
  }
}

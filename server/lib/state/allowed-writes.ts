import { createHash } from 'node:crypto'
import type { Storage } from 'unstorage'
import { AllowedWrite, MAX_ALLOWED_WRITES, type WriteAllowRule } from '#protocol'
import type { AllowedWrites } from '../tasks/deps'

export interface AllowedWritesOptions {
  /** Other servers write to the same storage (Redis): read it on every question instead of remembering it here. */
  shared?: boolean
}

// One key per rule, so two servers adding rules at once never overwrite each other's list.
const PREFIX = 'writes:allowed'
const keyOf = (rule: WriteAllowRule) =>
  `${PREFIX}:${createHash('sha256').update(JSON.stringify([rule.site, rule.method.toUpperCase(), rule.path, rule.operation ?? null])).digest('hex').slice(0, 32)}`
const newestFirst = (a: AllowedWrite, b: AllowedWrite) => b.at.localeCompare(a.at)
const ruleOf = ({ site, method, path, operation }: WriteAllowRule): WriteAllowRule => ({
  site,
  method: method.toUpperCase(),
  path,
  ...(operation !== undefined ? { operation } : {}),
})

async function readAll(storage: Storage): Promise<AllowedWrite[]> {
  const items = await storage.getItems(await storage.getKeys(PREFIX))
  return items.flatMap((item) => {
    const parsed = AllowedWrite.safeParse(item.value)
    return parsed.success ? [parsed.data] : []
  })
}

/** The kinds of write the person always allows, per site, in `storage` (the data dir or Redis, as tasks are). */
export function createAllowedWrites(storage: Storage, options: AllowedWritesOptions = {}): AllowedWrites {
  let cached: AllowedWrite[] | undefined
  const read = async () => (options.shared || !cached ? (cached = (await readAll(storage)).sort(newestFirst)) : cached)

  return {
    list: read,

    async add(rules: WriteAllowRule[], by: string) {
      const at = new Date().toISOString()
      const known = await read()
      for (const rule of rules) {
        const key = keyOf(rule)
        // Allowed already: it keeps the day it was first allowed, and by whom.
        if (known.some((k) => keyOf(k) === key)) continue
        await storage.setItem(key, { ...ruleOf(rule), at, by } as never)
      }
      cached = undefined
      const all = await read()
      for (const old of all.slice(MAX_ALLOWED_WRITES)) await storage.removeItem(keyOf(old))
      if (all.length > MAX_ALLOWED_WRITES) cached = all.slice(0, MAX_ALLOWED_WRITES)
    },

    async forget(rule: WriteAllowRule) {
      await storage.removeItem(keyOf(rule))
      cached = undefined
      return read()
    },
  }
}

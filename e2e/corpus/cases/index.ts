import type { Case } from '../types'
import { EN_WRITES } from './en-writes'
import { HARMLESS_WRITES } from './harmless-writes'
import { READS } from './reads'
import { ZH_WRITES } from './zh-writes'

export const CASES: Case[] = [...EN_WRITES, ...ZH_WRITES, ...READS, ...HARMLESS_WRITES]

const ids = new Set<string>()
for (const c of CASES) {
  if (ids.has(c.id)) throw new Error(`two cases are called ${c.id}`)
  ids.add(c.id)
}

import type { Case } from './types'

/**
 * The suite's share of the corpus: the first page of every (language, mechanism) pair, so each way a write can
 * hide and each kind of harmless control is there in both languages, at a quarter of the full run's time.
 */
export function suiteSubset(cases: Case[]): Case[] {
  const seen = new Set<string>()
  return cases.filter((c) => {
    const key = `${c.lang}:${c.mechanism}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

import type { Storage } from 'unstorage'
import { AllowedWrite, MAX_ALLOWED_WRITES, type WriteAllowRule } from '#protocol'
import type { AllowedWrites } from '../tasks/deps'
import { createKeptRules, type KeptRulesOptions } from './kept-rules'

export type AllowedWritesOptions = KeptRulesOptions

const ruleOf = ({ site, method, path, operation }: WriteAllowRule): WriteAllowRule => ({
  site,
  method: method.toUpperCase(),
  path,
  ...(operation !== undefined ? { operation } : {}),
})

/** The kinds of write the person always allows, per site, in `storage` (the data dir or Redis, as tasks are). */
export function createAllowedWrites(storage: Storage, options: AllowedWritesOptions = {}): AllowedWrites {
  return createKeptRules<WriteAllowRule, AllowedWrite>(
    storage,
    {
      prefix: 'writes:allowed',
      schema: AllowedWrite,
      identity: (rule) => [rule.site, rule.method.toUpperCase(), rule.path, rule.operation ?? null],
      normalise: ruleOf,
      max: MAX_ALLOWED_WRITES,
    },
    options,
  )
}

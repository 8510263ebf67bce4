import type { Storage } from 'unstorage'
import { AskAlwaysEntry, MAX_ASK_ALWAYS, type AskAlwaysRule } from '#protocol'
import type { AskAlwaysRules } from '../tasks/deps'
import { createKeptRules, type KeptRulesOptions } from './kept-rules'

/** The harmless kinds the person wants asked about on a site all the same, in `storage` (as tasks are). */
export function createAskAlways(storage: Storage, options: KeptRulesOptions = {}): AskAlwaysRules {
  return createKeptRules<AskAlwaysRule, AskAlwaysEntry>(
    storage,
    {
      prefix: 'writes:ask-always',
      schema: AskAlwaysEntry,
      identity: (rule) => [rule.site.toLowerCase(), rule.kind],
      normalise: ({ site, kind }) => ({ site: site.toLowerCase(), kind }),
      max: MAX_ASK_ALWAYS,
    },
    options,
  )
}

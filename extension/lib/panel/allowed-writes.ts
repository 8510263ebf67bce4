import { signal } from '@preact/signals'
import type { AllowedWrite, WriteAllowRule } from '#protocol'
import type { ServerClient } from '../server/client'
import type { PanelT } from './i18n'
import type { NoticeSink } from './notices'

export interface AllowedWritesDeps {
  client: Pick<ServerClient, 'allowedWrites' | 'forgetWrite'>
  t: PanelT
  notices: NoticeSink
}

/** A rule in a line: what it lets through and where. */
export function describeRule(rule: WriteAllowRule, t: PanelT): string {
  const operation = rule.operation === undefined ? '' : ` (${rule.operation ? t('allowed.operation', { name: rule.operation }) : t('allowed.unnamed')})`
  return `${rule.method} ${rule.site}${rule.path}${operation}`
}

/** The kinds of write the person always allows, as the server keeps them, and taking one back. */
export function createAllowedWrites(deps: AllowedWritesDeps) {
  const { client, t, notices } = deps
  const rules = signal<AllowedWrite[]>([])

  return {
    rules,
    /** A server that does not answer keeps the list as it was: the panel says so elsewhere. */
    async load() {
      rules.value = await client.allowedWrites().catch(() => rules.value)
    },
    forget: (rule: WriteAllowRule) =>
      notices.run(async () => {
        const { site, method, path, operation } = rule
        rules.value = await client.forgetWrite({ site, method, path, ...(operation !== undefined ? { operation } : {}) })
        notices.say(t('allowed.removed', { rule: describeRule(rule, t) }))
      }),
  }
}
export type AllowedWrites = ReturnType<typeof createAllowedWrites>

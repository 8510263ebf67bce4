import { signal } from '@preact/signals'
import type { AskAlwaysEntry, AskAlwaysRule, HarmlessWrite } from '#protocol'
import { asksAlways, siteOf } from '#protocol'
import type { ServerClient } from '../server/client'
import type { PanelT } from './i18n'
import type { NoticeSink } from './notices'

export interface AskAlwaysDeps {
  client: Pick<ServerClient, 'askAlways' | 'addAskAlways' | 'forgetAskAlways'>
  t: PanelT
  notices: NoticeSink
}

const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host : url)

/** A harmless write in a line: "Sent without asking: cart change to shop.example /cart/change.js". */
export function describeHarmless({ kind, request }: HarmlessWrite, t: PanelT): string {
  return t('harmless.sent', { what: t(`harmless.kind.${kind}`), where: `${hostOf(request.origin || request.url)} ${request.path}` })
}

/** The rule "always ask" would make for this write: its kind on its site (none for an address with no site). */
export function askRuleOf({ kind, request }: HarmlessWrite): AskAlwaysRule | null {
  const site = siteOf(request.url)
  return site ? { site, kind } : null
}

/** A rule in a line: "cart changes on shop.example". */
export const describeAskRule = (rule: AskAlwaysRule, t: PanelT) => t('asked.rule', { kinds: t(`harmless.kinds.${rule.kind}`), site: rule.site })

/** The harmless kinds the person wants asked about on a site all the same, as the server keeps them. */
export function createAskAlways(deps: AskAlwaysDeps) {
  const { client, t, notices } = deps
  const rules = signal<AskAlwaysEntry[]>([])
  const words = (rule: AskAlwaysRule) => ({ kinds: t(`harmless.kinds.${rule.kind}`), site: rule.site })

  const add = (rule: AskAlwaysRule) =>
    notices.run(async () => {
      rules.value = await client.addAskAlways({ site: rule.site, kind: rule.kind })
      notices.say(t('asked.added', words(rule)))
    })
  const forget = (rule: AskAlwaysRule) =>
    notices.run(async () => {
      rules.value = await client.forgetAskAlways({ site: rule.site, kind: rule.kind })
      notices.say(t('asked.removed', words(rule)))
    })

  return {
    rules,
    /** A server that does not answer keeps the list as it was: the panel says so elsewhere. */
    async load() {
      rules.value = await client.askAlways().catch(() => rules.value)
    },
    isAsked: (rule: AskAlwaysRule) => asksAlways(rules.value, rule.site, rule.kind),
    add,
    forget,
    /** The toggle beside a harmless write: always ask about its kind on its site, or stop. */
    toggle: (rule: AskAlwaysRule) => (asksAlways(rules.value, rule.site, rule.kind) ? forget(rule) : add(rule)),
  }
}
export type AskAlways = ReturnType<typeof createAskAlways>

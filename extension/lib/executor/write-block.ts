import type { WxtBrowser as Browser } from 'wxt/browser'
import { classifyRequest, MAX_ALLOWED_WRITES, type HeldRequest, type HeldWrite, type WriteAllowRule } from '#protocol'

type Rule = Parameters<Browser['declarativeNetRequest']['updateSessionRules']>[0] extends { addRules?: (infer R)[] } ? R : never

interface BlockedDetails {
  tabId: number
  url: string
  method: string
  type: string
  error: string
  requestId: string
}

export interface WriteBlockApis {
  declarativeNetRequest: Pick<Browser['declarativeNetRequest'], 'updateSessionRules'>
  /** webRequest.onErrorOccurred: says which request a rule blocked (for sites the person granted). */
  blocked: {
    addListener(cb: (d: BlockedDetails) => void, filter: { urls: string[]; tabId?: number; types?: string[] }): void
    removeListener(cb: (d: BlockedDetails) => void): void
  }
}

/** Session rule ids of the fallback, apart from the navigation guard's (7000–7199). */
export const BLOCK_FIRST_RULE_ID = 7200
/** The two blocks, one allow rule per write the person always allows (7202–7401), then the windows' block (7402). */
const BLOCK_RULE_IDS = Array.from({ length: 3 + MAX_ALLOWED_WRITES }, (_, i) => BLOCK_FIRST_RULE_ID + i)
const WINDOWS_RULE_ID = BLOCK_FIRST_RULE_ID + 2 + MAX_ALLOWED_WRITES
const WRITE_METHODS = ['post', 'put', 'patch', 'delete', 'connect', 'other']

/**
 * Every kind of request a write can be. Named, because a rule that names none leaves out `main_frame`: a form
 * posted by script (`requestSubmit()` from a plain element) would then navigate past the block.
 */
const ALL_TYPES = ['main_frame', 'sub_frame', 'xmlhttprequest', 'ping', 'csp_report', 'other', 'object', 'media', 'image', 'script', 'stylesheet', 'font', 'websocket']
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
// What isIdSegment calls an id, as near as RE2 (no lookahead) can say it: a number, or a long run of id characters
// (hex, UUID, base64, a masked token or email). A short word never matches, so `/drafts/all/delete` stays blocked.
const ID = '(?:[0-9]+|[A-Za-z0-9_=%.@+-]{12,})'
/** The URLs a rule lets through: its site, its path with each `*` an id, any query. */
export const allowRegexOf = (rule: WriteAllowRule) =>
  `^${escape(rule.site)}${rule.path.split('/').map((segment) => (segment === '*' ? ID : escape(segment))).join('/')}(?:[?#].*)?$`

/**
 * The writes the person always allows, as allow rules above the block. DNR cannot read a body, so a rule for one
 * GraphQL operation stays blocked here, and asked about.
 */
const allowRules = (tabId: number, allow: readonly WriteAllowRule[]): Rule[] =>
  allow
    .filter((rule) => rule.operation === undefined && WRITE_METHODS.includes(rule.method.toLowerCase()))
    .slice(0, MAX_ALLOWED_WRITES)
    .map((rule, i) => ({
      id: BLOCK_FIRST_RULE_ID + 2 + i,
      priority: 4,
      action: { type: 'allow' },
      condition: { tabIds: [tabId], requestMethods: [rule.method.toLowerCase()] as never, regexFilter: allowRegexOf(rule), resourceTypes: ALL_TYPES as never },
    }))
const BLOCKED = 'net::ERR_BLOCKED_BY_CLIENT'

/** Everything a write can be (the fallback), or only WebSocket openings (beside the debugger). */
export type BlockScope = 'writes' | 'sockets'

/**
 * The barrier's fallback when the debugger cannot be had (the person canceled Chrome's debugging bar for the
 * tab, DevTools holds it): while an unapproved step runs, declarativeNetRequest session rules block the task tab's
 * writes (every method but GET, HEAD and OPTIONS, and WebSocket openings) outright. Nothing can be held, so a
 * blocked write makes the step ask the person, and it runs again once approved; webRequest says what was blocked.
 * Its priority is above the navigation guard's allow rules, so a granted site does not let a write through.
 */
export function createWriteBlock(apis: WriteBlockApis) {
  let current: {
    tabId: number
    pageUrl: string | undefined
    seen: BlockedDetails[]
    opened: BlockedDetails[]
    listener: (d: BlockedDetails) => void
    windowListener: (d: BlockedDetails) => void
  } | null = null
  /** The last removal of the rules: the next step's rules are set after it, never before it lands. */
  let releasing: Promise<void> = Promise.resolve()

  const sockets = (tabId: number): Rule => ({
    id: BLOCK_RULE_IDS[1]!,
    priority: 3,
    action: { type: 'block' },
    condition: { tabIds: [tabId], resourceTypes: ['websocket'] as never },
  })
  /**
   * A window the page opens is another tab, out of the barrier's reach when it loads: its first request is blocked,
   * and the step opens it again under the barrier (see popups), so a window that posts as it loads is held too.
   */
  const windows = (tabId: number, pageUrl: string | undefined): Rule[] => {
    const page = pageUrl && URL.canParse(pageUrl) ? new URL(pageUrl) : null
    if (!page || (page.protocol !== 'http:' && page.protocol !== 'https:')) return []
    const condition = { initiatorDomains: [page.hostname.replace(/^\[|\]$/g, '')], excludedTabIds: [tabId], resourceTypes: ['main_frame'] as never }
    return [{ id: WINDOWS_RULE_ID, priority: 3, action: { type: 'block' }, condition }]
  }
  const rules = (tabId: number, pageUrl: string | undefined, allow: readonly WriteAllowRule[], scope: BlockScope): Rule[] =>
    scope === 'sockets'
      ? [sockets(tabId), ...windows(tabId, pageUrl)]
      : [
          { id: BLOCK_RULE_IDS[0]!, priority: 3, action: { type: 'block' }, condition: { tabIds: [tabId], requestMethods: WRITE_METHODS as never, resourceTypes: ALL_TYPES as never } },
          sockets(tabId),
          ...allowRules(tabId, allow),
          ...windows(tabId, pageUrl),
        ]

  /** Stops listening for the step that was blocked; its rules are replaced or removed by the caller. */
  function unlisten() {
    const ending = current
    current = null
    if (ending) {
      apis.blocked.removeListener(ending.listener)
      apis.blocked.removeListener(ending.windowListener)
    }
  }

  const self = {
    /**
     * Blocks the tab's writes, but those the person always allows, until `release`; false when the rules could not
     * be set. With the debugger holding everything else, only WebSocket openings (`sockets`): CDP cannot pause them.
     */
    async engage(tabId: number, pageUrl: string | undefined, allow: readonly WriteAllowRule[] = [], scope: BlockScope = 'writes'): Promise<boolean> {
      unlisten()
      await releasing
      const seen: BlockedDetails[] = []
      const opened: BlockedDetails[] = []
      const listener = (d: BlockedDetails) => {
        if (d.tabId === tabId && d.error === BLOCKED) seen.push(d)
      }
      const windowListener = (d: BlockedDetails) => {
        if (d.type === 'main_frame' && d.tabId !== tabId && d.tabId >= 0 && d.error === BLOCKED && !opened.some((o) => o.tabId === d.tabId)) opened.push(d)
      }
      apis.blocked.addListener(listener, { urls: ['<all_urls>'], tabId })
      apis.blocked.addListener(windowListener, { urls: ['<all_urls>'], types: ['main_frame'] })
      current = { tabId, pageUrl, seen, opened, listener, windowListener }
      try {
        // One update replaces whatever rules of the block are set (the last step's, a stopped worker's).
        await apis.declarativeNetRequest.updateSessionRules({ removeRuleIds: BLOCK_RULE_IDS, addRules: rules(tabId, pageUrl, allow, scope) })
        return true
      } catch (error) {
        console.warn('[tandem] the write block could not be set', error)
        await self.release()
        return false
      }
    },

    /** What the rules blocked, as a person reads it: writes to ask about, and telemetry nobody needs to hear of. */
    blocked(): { writes: HeldWrite[]; dropped: HeldRequest[] } {
      const writes: HeldWrite[] = []
      const dropped: HeldRequest[] = []
      for (const d of current?.seen ?? []) {
        const judged = classifyRequest({ method: d.method, url: d.url, resourceType: d.type, pageUrl: current?.pageUrl })
        if (judged.verdict === 'drop') dropped.push(judged.request)
        // A read sent by POST was blocked too: the rules cannot tell; it is no write to ask about.
        else if (judged.verdict === 'hold') writes.push({ id: `blocked-${d.requestId}`, reason: judged.reason, request: judged.request })
      }
      return { writes, dropped }
    },

    /** The windows the page tried to open while the step ran (their first request blocked): tab, address, method. */
    popups: () => (current?.opened ?? []).map((d) => ({ tabId: d.tabId, url: d.url, method: d.method })),

    /**
     * Removes the block's rules, a stopped worker's included (ids that are not set are ignored). What was blocked is
     * no longer listened to from here; a caller that goes on without waiting for the removal may, as the next
     * `engage` waits for it.
     */
    release(): Promise<void> {
      unlisten()
      releasing = apis.declarativeNetRequest
        .updateSessionRules({ removeRuleIds: BLOCK_RULE_IDS })
        .catch((error: unknown) => console.warn('[tandem] the write block could not be removed', error))
      return releasing
    },
  }
  return self
}
export type WriteBlock = ReturnType<typeof createWriteBlock>

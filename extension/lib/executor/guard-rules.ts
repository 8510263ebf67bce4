import type { Browser as Chrome } from 'wxt/browser'
import { originPattern } from './site-access'

export type GuardRule = Chrome.declarativeNetRequest.Rule

/**
 * Session rule ids the navigation guard owns. Session rules outlive a stopped worker, so a new worker removes
 * every id in this range before it does anything else.
 */
export const GUARD_FIRST_RULE_ID = 7000
export const GUARD_RULE_IDS = 200
export const isGuardRuleId = (id: number) => id >= GUARD_FIRST_RULE_ID && id < GUARD_FIRST_RULE_ID + GUARD_RULE_IDS

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]']
const isLoopback = (hostname: string) => LOOPBACK_NAMES.includes(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname)

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

/** Grants that cover every site: the guard has nothing to hold back. */
const EVERY_SITE = new Set(['<all_urls>', '*://*/*'])

/**
 * A URL regex for a host permission pattern ("https://shop.example/*", "*://*.example.com/*"), or null for a
 * pattern that covers no web page. Grants are per host, so any port and path match; userinfo never does,
 * so "https://granted.example@evil.example/" is not taken for the granted site.
 */
export function grantRegex(pattern: string): string | null {
  const match = /^(\*|https?):\/\/([^/]+)\//.exec(pattern)
  if (!match) return null
  const [, scheme, rawHost] = match
  const host = rawHost!.toLowerCase().replace(/:\d+$/, '')
  const hostRegex =
    host === '*' ? '[^/?#@]+' : host.startsWith('*.') ? `([^/?#@:]+\\.)?${escape(host.slice(2))}` : escape(host)
  return `^${scheme === '*' ? 'https?' : scheme}://${hostRegex}(:[0-9]+)?/`
}

export interface GuardScope {
  tabId: number
  /** The page Tandem acts on (or is about to open): its site is granted, since Tandem acts there. */
  pageUrl: string | undefined
  /** Host permission patterns the person granted (permissions.getAll().origins). */
  grants: readonly string[]
  serverUrl: string
}

/** The allowed sites as URL regexes: the grants, the page's own site and the Tandem server under its loopback names. */
export function allowedRegexes(scope: Omit<GuardScope, 'tabId'>): string[] {
  const patterns = [...scope.grants]
  for (const raw of [scope.pageUrl, scope.serverUrl]) {
    if (!raw || !URL.canParse(raw)) continue
    const url = new URL(raw)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue
    patterns.push(originPattern(url))
    if (raw === scope.serverUrl && isLoopback(url.hostname)) patterns.push(...LOOPBACK_NAMES.map((name) => `${url.protocol}//${name}/*`))
  }
  return [...new Set(patterns.map(grantRegex).filter((r): r is string => r !== null))]
}

/**
 * The session rules that keep the task tab on granted sites while an action runs: every frame navigation in
 * that tab is blocked, and so is a new window the page opens (its first request comes from the page's site),
 * unless an allow rule for a granted site matches. Null when the person granted every site.
 */
export function guardRules(scope: GuardScope): GuardRule[] | null {
  if (scope.grants.some((g) => EVERY_SITE.has(g))) return null
  const allowed = allowedRegexes(scope).slice(0, GUARD_RULE_IDS - 2)
  const frames: Chrome.declarativeNetRequest.ResourceType[] = ['main_frame', 'sub_frame'] as never
  const rules: GuardRule[] = [
    { id: GUARD_FIRST_RULE_ID, priority: 1, action: { type: 'block' }, condition: { tabIds: [scope.tabId], resourceTypes: frames } },
  ]
  const page = scope.pageUrl && URL.canParse(scope.pageUrl) ? new URL(scope.pageUrl) : null
  if (page && (page.protocol === 'http:' || page.protocol === 'https:')) {
    rules.push({
      id: GUARD_FIRST_RULE_ID + 1,
      priority: 1,
      action: { type: 'block' },
      condition: { initiatorDomains: [page.hostname.replace(/^\[|\]$/g, '')], resourceTypes: ['main_frame'] as never },
    })
  }
  allowed.forEach((regexFilter, i) =>
    rules.push({ id: GUARD_FIRST_RULE_ID + 2 + i, priority: 2, action: { type: 'allow' }, condition: { regexFilter, resourceTypes: frames } }),
  )
  return rules
}

/** Whether the guard's rules let `url` through (another extension may block what the guard allows). */
export const allowedBy = (regexes: readonly RegExp[], url: string) => regexes.some((r) => r.test(url))

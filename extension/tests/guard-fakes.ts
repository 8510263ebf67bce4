import { vi } from 'vitest'
import type { GuardRule } from '../lib/executor/guard-rules'

/** An event as chrome.* has them: listeners added and removed, fired by the test. */
function event<T>() {
  const listeners = new Set<(d: T) => void>()
  return {
    addListener: (cb: (d: T) => void) => void listeners.add(cb),
    removeListener: (cb: (d: T) => void) => void listeners.delete(cb),
    fire: (d: T) => listeners.forEach((cb) => cb(d)),
    get count() {
      return listeners.size
    },
  }
}

/** Just the declarativeNetRequest, permissions and webNavigation calls the guard makes, kept in memory. */
export function fakeGuardApis(grants: string[], session: GuardRule[] = [], serverUrl = 'http://127.0.0.1:3000') {
  let rules = [...session]
  const nav = {
    onBeforeNavigate: event<{ tabId: number; frameId: number }>(),
    onErrorOccurred: event<{ tabId: number; frameId: number; url: string; error: string }>(),
    onCreatedNavigationTarget: event<{ sourceTabId: number; tabId: number }>(),
  }
  const dnr = {
    getSessionRules: vi.fn(async () => structuredClone(rules)),
    updateSessionRules: vi.fn(async ({ removeRuleIds = [], addRules = [] }: { removeRuleIds?: number[]; addRules?: GuardRule[] }) => {
      rules = rules.filter((r) => !removeRuleIds.includes(r.id))
      if (addRules.some((r) => rules.some((k) => k.id === r.id))) throw new Error('Rule id must be unique')
      rules.push(...structuredClone(addRules))
    }),
  }
  const apis = {
    declarativeNetRequest: dnr as never,
    permissions: { getAll: vi.fn(async () => ({ origins: grants, permissions: [] })) } as never,
    webNavigation: nav,
    serverUrl: async () => serverUrl,
  }
  return { apis, nav, dnr, rules: () => rules }
}

export const blocked = (tabId: number, url: string, frameId = 0) => ({ tabId, frameId, url, error: 'net::ERR_BLOCKED_BY_CLIENT' })


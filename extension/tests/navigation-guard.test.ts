import { describe, expect, it, vi } from 'vitest'
import type { ObservationInput } from '#protocol'
import { GUARD_FIRST_RULE_ID, allowedRegexes, grantRegex, guardRules, type GuardRule } from '../lib/executor/guard-rules'
import { createNavigationGuard, withRefusals } from '../lib/executor/navigation-guard'
import { blocked, fakeGuardApis as fakeApis } from './guard-fakes'

const SERVER = 'http://127.0.0.1:3000'

/** Which of the guard's rules decides a request, as declarativeNetRequest would: the highest priority wins, allow over block. */
function outcome(rules: GuardRule[], request: { url: string; tabId: number; type: string; initiator?: string }): 'block' | 'allow' | 'none' {
  const matching = rules.filter((r) => {
    const c = r.condition
    if (c.resourceTypes && !(c.resourceTypes as string[]).includes(request.type)) return false
    if (c.tabIds && !c.tabIds.includes(request.tabId)) return false
    if (c.initiatorDomains && !(request.initiator && c.initiatorDomains.some((d) => new URL(request.initiator!).hostname === d))) return false
    if (c.regexFilter && !new RegExp(c.regexFilter, 'i').test(request.url)) return false
    return true
  })
  if (!matching.length) return 'none'
  const top = Math.max(...matching.map((r) => r.priority ?? 1))
  const winners = matching.filter((r) => (r.priority ?? 1) === top)
  return winners.some((r) => r.action.type === 'allow') ? 'allow' : 'block'
}

describe('guard rules', () => {
  const rules = guardRules({ tabId: 5, pageUrl: 'https://shop.example/cart', grants: ['https://shop.example/*', '*://*.docs.example/*'], serverUrl: SERVER })!
  const frame = (url: string, tabId = 5, type = 'main_frame') => outcome(rules, { url, tabId, type })

  it('blocks frames of the task tab bound for a site nobody granted, whatever the query says', () => {
    expect(frame('http://evil.test:8080/collect?pw=secret')).toBe('block')
    expect(frame('https://evil.test/', 5, 'sub_frame')).toBe('block')
    expect(frame('https://shop.example.evil.test/')).toBe('block')
    expect(frame('https://shop.example@evil.test/')).toBe('block')
    expect(frame('https://shop.example:1@evil.test/')).toBe('block')
  })

  it('lets granted sites, any port and path, subdomains only for a wildcard grant, and the Tandem server through', () => {
    expect(frame('https://shop.example/checkout?x=1')).toBe('allow')
    expect(frame('https://shop.example:8443/')).toBe('allow')
    expect(frame('https://m.shop.example/')).toBe('block')
    expect(frame('http://shop.example/')).toBe('block')
    expect(frame('https://docs.example/a')).toBe('allow')
    expect(frame('http://api.v2.docs.example/a')).toBe('allow')
    expect(frame('http://127.0.0.1:3000/console')).toBe('allow')
    expect(frame('http://localhost:3000/')).toBe('allow')
  })

  it('touches no other tab, except a window the page opens (its request comes from the page’s site)', () => {
    expect(frame('https://evil.test/', 6)).toBe('none')
    expect(outcome(rules, { url: 'https://evil.test/', tabId: 9, type: 'main_frame', initiator: 'https://shop.example' })).toBe('block')
    expect(outcome(rules, { url: 'https://evil.test/x.png', tabId: 5, type: 'image' })).toBe('none')
  })

  it('counts the page’s own site as granted, since Tandem acts there', () => {
    const onPage = guardRules({ tabId: 5, pageUrl: 'http://127.0.0.1:4100/inject/x', grants: [], serverUrl: 'http://localhost:3000' })!
    expect(outcome(onPage, { url: 'http://127.0.0.1:4100/next', tabId: 5, type: 'main_frame' })).toBe('allow')
    expect(outcome(onPage, { url: 'http://evil.test:4100/collect', tabId: 5, type: 'main_frame' })).toBe('block')
  })

  it('sets no rule at all when every site is granted', () => {
    expect(guardRules({ tabId: 5, pageUrl: 'https://a.example/', grants: ['<all_urls>'], serverUrl: SERVER })).toBeNull()
    expect(guardRules({ tabId: 5, pageUrl: 'https://a.example/', grants: ['*://*/*'], serverUrl: SERVER })).toBeNull()
  })

  it('turns grants into anchored regexes and ignores patterns that cover no web page', () => {
    expect(grantRegex('https://shop.example/*')).toBe('^https://shop\\.example(:[0-9]+)?/')
    expect(grantRegex('file:///*')).toBeNull()
    expect(allowedRegexes({ pageUrl: 'about:blank', grants: ['chrome://x/*'], serverUrl: 'not a url' })).toEqual([])
  })
})

describe('navigation guard', () => {
  it('sets its rules for the task tab, and removes them on release', async () => {
    const { apis, rules, nav } = fakeApis(['https://shop.example/*'])
    const guard = createNavigationGuard(apis)
    await guard.engage(5, 'https://shop.example/')
    expect(rules().map((r) => r.id)).toContain(GUARD_FIRST_RULE_ID)
    expect(rules()[0]!.condition.tabIds).toEqual([5])
    expect(nav.onErrorOccurred.count).toBe(1)
    await guard.release()
    expect(rules()).toEqual([])
    expect(nav.onErrorOccurred.count).toBe(0)
  })

  it('keeps its rules for the task’s next step in hand, which starts with nothing heard', async () => {
    const { apis, rules, dnr, nav } = fakeApis(['https://shop.example/*'])
    const guard = createNavigationGuard(apis)
    await guard.engage(5, 'https://shop.example/')
    nav.onBeforeNavigate.fire({ tabId: 5, frameId: 0 })
    nav.onErrorOccurred.fire(blocked(5, 'https://evil.test/'))
    await guard.keep()
    expect(guard.refusals()).toEqual({ page: null, frames: [] })
    expect(guard.navigating()).toBe(false)
    await guard.engage(5, 'https://shop.example/cart')
    expect(dnr.updateSessionRules).toHaveBeenCalledTimes(1)
    expect(rules()[0]!.condition.tabIds).toEqual([5])
    // Still heard in the next step.
    nav.onErrorOccurred.fire(blocked(5, 'https://evil.test/'))
    expect(guard.refusals().page).toBe('https://evil.test')
    await guard.release()
    expect(rules()).toEqual([])
  })

  it('sets its rules again after a kept hold when the next step needs others, is elsewhere, or something happened in between', async () => {
    for (const next of [
      { tabId: 5, url: 'https://other.example/' },
      { tabId: 8, url: 'https://shop.example/' },
      { tabId: 5, url: 'https://shop.example/', between: true },
    ]) {
      const { apis, rules, dnr, nav } = fakeApis(['https://shop.example/*'])
      const guard = createNavigationGuard(apis)
      await guard.engage(5, 'https://shop.example/')
      await guard.keep()
      if (next.between) nav.onBeforeNavigate.fire({ tabId: 5, frameId: 0 })
      await guard.engage(next.tabId, next.url)
      expect(dnr.updateSessionRules.mock.calls.length).toBeGreaterThan(1)
      expect(rules().filter((r) => r.condition.tabIds).map((r) => r.condition.tabIds)).toEqual([[next.tabId]])
      expect(guard.navigating()).toBe(false)
    }
  })

  it('does nothing when the person granted every site', async () => {
    const { apis, dnr, nav } = fakeApis(['<all_urls>'])
    const guard = createNavigationGuard(apis)
    await guard.engage(5, 'https://shop.example/')
    expect(dnr.updateSessionRules).not.toHaveBeenCalled()
    expect(nav.onErrorOccurred.count).toBe(0)
    await guard.quiet(Date.now() + 10_000)
  })

  it('names the site a blocked navigation of the tab, or of a window its page opened, was headed for', async () => {
    const { apis, nav } = fakeApis(['https://shop.example/*'])
    const guard = createNavigationGuard(apis)
    await guard.engage(5, 'https://shop.example/')
    nav.onErrorOccurred.fire(blocked(6, 'https://elsewhere.test/'))
    nav.onErrorOccurred.fire({ ...blocked(5, 'https://evil.test/'), error: 'net::ERR_NAME_NOT_RESOLVED' })
    expect(guard.refusals()).toEqual({ page: null, frames: [] })
    nav.onErrorOccurred.fire(blocked(5, 'https://ads.test/frame', 3))
    nav.onCreatedNavigationTarget.fire({ sourceTabId: 5, tabId: 7 })
    nav.onErrorOccurred.fire(blocked(7, 'http://evil.test:81/collect?pw=x'))
    expect(guard.refusals()).toEqual({ page: 'http://evil.test:81', frames: ['https://ads.test'] })
  })

  it('does not take a site another extension blocked for one Tandem refused', async () => {
    const { apis, nav } = fakeApis(['https://shop.example/*'])
    const guard = createNavigationGuard(apis)
    await guard.engage(5, 'https://shop.example/')
    nav.onErrorOccurred.fire(blocked(5, 'https://shop.example/tracker'))
    expect(guard.refusals().page).toBeNull()
  })

  it('waits out the grace time unless the tab starts to navigate first', async () => {
    vi.useFakeTimers()
    try {
      const { apis, nav } = fakeApis(['https://shop.example/*'])
      const guard = createNavigationGuard(apis)
      await guard.engage(5, 'https://shop.example/')
      let over = false
      const waiting = guard.quiet(Date.now() + 500).then(() => (over = true))
      await vi.advanceTimersByTimeAsync(100)
      nav.onBeforeNavigate.fire({ tabId: 5, frameId: 1 })
      await vi.advanceTimersByTimeAsync(0)
      expect(over).toBe(false)
      nav.onBeforeNavigate.fire({ tabId: 5, frameId: 0 })
      await waiting
      expect(guard.navigating()).toBe(true)

      const second = createNavigationGuard(fakeApis(['https://shop.example/*']).apis)
      await second.engage(5, 'https://shop.example/')
      let done = false
      const quiet = second.quiet(Date.now() + 500).then(() => (done = true))
      await vi.advanceTimersByTimeAsync(499)
      expect(done).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      await quiet
      expect(second.navigating()).toBe(false)
    } finally {
      vi.useRealTimers()
    }
  })

  it('a release while the grace time runs (the person took over) ends the wait', async () => {
    const { apis, rules } = fakeApis(['https://shop.example/*'])
    const guard = createNavigationGuard(apis)
    await guard.engage(5, 'https://shop.example/')
    const waiting = guard.quiet(Date.now() + 60_000)
    await guard.release()
    await waiting
    expect(rules()).toEqual([])
  })

  it('a new engagement replaces the last one: one hold at a time', async () => {
    const { apis, rules } = fakeApis(['https://shop.example/*'])
    const guard = createNavigationGuard(apis)
    await guard.engage(5, 'https://shop.example/')
    await guard.engage(8, 'https://shop.example/')
    expect(rules().filter((r) => r.condition.tabIds).map((r) => r.condition.tabIds)).toEqual([[8]])
  })

  it('clears rules a stopped worker left behind, and only its own', async () => {
    const other: GuardRule = { id: 1, action: { type: 'block' }, condition: { urlFilter: 'x' } }
    const stale = guardRules({ tabId: 5, pageUrl: 'https://shop.example/', grants: [], serverUrl: SERVER })!
    const { apis, rules } = fakeApis([], [other, ...stale])
    const guard = createNavigationGuard(apis)
    await Promise.all([guard.clear(), guard.engage(9, 'https://shop.example/')])
    expect(rules().filter((r) => r.condition.tabIds).map((r) => r.condition.tabIds)).toEqual([[9]])
    await guard.clear()
    expect(rules()).toEqual([other])
  })

  it('still lets the step run when the browser refuses the rule', async () => {
    const { apis, dnr, nav } = fakeApis(['https://shop.example/*'])
    dnr.updateSessionRules.mockRejectedValueOnce(new Error('too many regex rules'))
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const guard = createNavigationGuard(apis)
    await guard.engage(5, 'https://shop.example/')
    expect(nav.onErrorOccurred.count).toBe(0)
    expect(warn).toHaveBeenCalled()
    warn.mockRestore()
  })
})

describe('withRefusals', () => {
  const observation: ObservationInput = {
    status: 'done',
    url: 'http://evil.test:81/collect',
    errors: [{ code: 'PERMISSION_DENIED', message: 'Tandem may not act on http://evil.test:81 yet' }, { code: 'SCREENSHOT_UNAVAILABLE', message: 'x' }],
  }

  it('turns a step whose page was stopped from leaving into PERMISSION_DENIED naming the site', () => {
    const out = withRefusals(observation, { page: 'http://evil.test:81', frames: [] })
    expect(out.status).toBe('failed')
    expect(out.errors).toEqual([
      expect.objectContaining({ code: 'PERMISSION_DENIED', origin: 'http://evil.test:81' }),
      { code: 'SCREENSHOT_UNAVAILABLE', message: 'x' },
    ])
  })

  it('notes held-back frames without failing the step, and leaves an untouched step as it was', () => {
    const plain: ObservationInput = { status: 'done', url: 'https://shop.example/', errors: [] }
    expect(withRefusals(plain, { page: null, frames: [] })).toBe(plain)
    const out = withRefusals(plain, { page: null, frames: ['https://ads.test'] })
    expect(out.status).toBe('done')
    expect(out.errors).toEqual([expect.objectContaining({ code: 'PERMISSION_DENIED', origin: 'https://ads.test' })])
  })
})

import type { WxtBrowser as Browser } from 'wxt/browser'
import type { ObservationError, ObservationInput } from '#protocol'
import { allowedBy, allowedRegexes, guardRules, isGuardRuleId } from './guard-rules'

type Listener<T> = { addListener(cb: (details: T) => void): void; removeListener(cb: (details: T) => void): void }

export interface GuardApis {
  declarativeNetRequest: Pick<Browser['declarativeNetRequest'], 'updateSessionRules' | 'getSessionRules'>
  permissions: Pick<Browser['permissions'], 'getAll'>
  webNavigation: {
    onBeforeNavigate: Listener<{ tabId: number; frameId: number }>
    onErrorOccurred: Listener<{ tabId: number; frameId: number; url: string; error: string }>
    onCreatedNavigationTarget: Listener<{ sourceTabId: number; tabId: number }>
  }
  serverUrl: () => Promise<string>
  now?: () => number
}

/** What the guard saw while it held a tab. */
export interface Refusals {
  /** The site a blocked navigation of the tab (or of a window its page opened) was headed for. */
  page: string | null
  /** Sites of frames inside the page that were held back. */
  frames: string[]
}

export interface NavigationGuard {
  /** Holds `tabId` on granted sites (and the page's own, `pageUrl`) until release; replaces any earlier hold. */
  engage(tabId: number, pageUrl: string | undefined): Promise<void>
  /** Waits until the held tab starts to navigate, a navigation is refused, or the time `until` (ms) comes. */
  quiet(until: number): Promise<void>
  /** Whether the held tab has started a navigation since the hold began. */
  navigating(): boolean
  refusals(): Refusals
  release(): Promise<void>
  /**
   * Keeps the hold after its step, for the task's next step already in hand: engaged on the same tab with the same
   * rules and with nothing heard meanwhile, it goes on as it is (no rule set again); anything else replaces it.
   */
  keep(): Promise<void>
  /** Removes rules a stopped worker left behind. */
  clear(): Promise<void>
}

const BLOCKED = 'net::ERR_BLOCKED_BY_CLIENT'

interface Hold {
  tabId: number
  /** Tabs the page opened while held. */
  opened: Set<number>
  allowed: RegExp[]
  /** The rules set for it, as set (the next step's hold reuses them when they are the same). */
  rules: string
  ruled: boolean
  /** Kept after its step for the next one, already in hand (see `keep`). */
  kept: boolean
  started: boolean
  refusals: Refusals
  wake: () => void
  stop: () => void
}

/**
 * Keeps the task tab from leaving for a site the person did not grant while Tandem acts in it. The in-page
 * site gate refuses links and forms before they are followed; a script (location, window.open, form.submit()
 * on a form it built, a refresh it adds) can still navigate, and its request would reach that site before the
 * worker could refuse the page. A declarativeNetRequest session rule stops such a request in the browser,
 * and webNavigation says which site it was for, so the step can be refused and the person asked.
 */
export function createNavigationGuard(apis: GuardApis): NavigationGuard {
  const now = apis.now ?? Date.now
  const dnr = apis.declarativeNetRequest
  let hold: Hold | null = null
  // Engage, release and clear run one after another: a release must never overtake the hold it ends.
  let chain: Promise<unknown> = Promise.resolve()
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work, work)
    chain = next.catch(() => undefined)
    return next
  }

  async function removeOwnRules() {
    const rules = await dnr.getSessionRules()
    const ids = rules.map((r) => r.id).filter(isGuardRuleId)
    if (ids.length) await dnr.updateSessionRules({ removeRuleIds: ids })
  }

  async function drop() {
    const ending = hold
    hold = null
    if (!ending) return
    ending.stop()
    if (ending.ruled) await removeOwnRules()
  }

  function listen(h: Hold) {
    const onBefore = (d: { tabId: number; frameId: number }) => {
      if (d.tabId === h.tabId && d.frameId === 0) {
        h.started = true
        h.wake()
      }
    }
    const onCreated = (d: { sourceTabId: number; tabId: number }) => {
      if (d.sourceTabId === h.tabId) h.opened.add(d.tabId)
    }
    const onError = (d: { tabId: number; frameId: number; url: string; error: string }) => {
      if (d.error !== BLOCKED || (d.tabId !== h.tabId && !h.opened.has(d.tabId))) return
      // Another extension may block what the guard allows: that is not a site Tandem refused.
      if (!URL.canParse(d.url) || allowedBy(h.allowed, d.url)) return
      const origin = new URL(d.url).origin
      if (d.frameId === 0) h.refusals.page ??= origin
      else if (!h.refusals.frames.includes(origin)) h.refusals.frames.push(origin)
      h.wake()
    }
    const nav = apis.webNavigation
    nav.onBeforeNavigate.addListener(onBefore)
    nav.onCreatedNavigationTarget.addListener(onCreated)
    nav.onErrorOccurred.addListener(onError)
    h.stop = () => {
      nav.onBeforeNavigate.removeListener(onBefore)
      nav.onCreatedNavigationTarget.removeListener(onCreated)
      nav.onErrorOccurred.removeListener(onError)
      h.wake()
    }
  }

  return {
    engage: (tabId, pageUrl) =>
      serial(async () => {
        const grants = (await apis.permissions.getAll().catch(() => null))?.origins ?? []
        const scope = { tabId, pageUrl, grants, serverUrl: await apis.serverUrl() }
        const rules = guardRules(scope)
        // The last step's hold, kept for this one with the very rules it needs, and nothing heard since.
        const kept = hold?.kept && hold.tabId === tabId && !hold.started && !hold.refusals.page && !hold.refusals.frames.length
        if (kept && rules && hold!.ruled && hold!.rules === JSON.stringify(rules)) {
          hold!.kept = false
          return
        }
        await drop()
        if (!rules) return
        const h: Hold = {
          tabId,
          opened: new Set(),
          allowed: allowedRegexes(scope).map((r) => new RegExp(r, 'i')),
          rules: JSON.stringify(rules),
          ruled: false,
          kept: false,
          started: false,
          refusals: { page: null, frames: [] },
          wake: () => undefined,
          stop: () => undefined,
        }
        // Listening first: a navigation the rule stops at once must still be heard.
        listen(h)
        hold = h
        try {
          await dnr.updateSessionRules({ removeRuleIds: rules.map((r) => r.id), addRules: rules })
          h.ruled = true
        } catch (error) {
          // Without the rule the in-page site gate and the page check still refuse; the step is not lost over it.
          console.warn('[tandem] the navigation guard could not be set', error)
          await drop()
        }
      }),

    async quiet(until) {
      const h = hold
      if (!h) return
      const wait = until - now()
      if (wait <= 0 || h.started || h.refusals.page) return
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer)
          h.wake = () => undefined
          resolve()
        }
        const timer = setTimeout(done, wait)
        h.wake = done
      })
    },

    navigating: () => !!hold?.started,
    refusals: () => (hold ? { page: hold.refusals.page, frames: [...hold.refusals.frames] } : { page: null, frames: [] }),
    release: () => serial(drop),
    keep: () =>
      serial(async () => {
        if (!hold) return
        hold.kept = true
        hold.started = false
        hold.opened.clear()
        hold.refusals = { page: null, frames: [] }
      }),
    clear: () =>
      serial(async () => {
        hold?.stop()
        hold = null
        await removeOwnRules()
      }),
  }
}

/**
 * The action's outcome in the light of what the guard stopped: a blocked navigation of the page makes the
 * step fail with PERMISSION_DENIED naming the site (the server asks the person about it), whatever the page
 * said; held-back frames are noted.
 */
export function withRefusals(observation: ObservationInput, refusals: Refusals): ObservationInput {
  const notes: ObservationError[] = refusals.frames
    .filter((origin) => origin !== refusals.page)
    .map((origin) => ({
      code: 'PERMISSION_DENIED',
      message: `A frame from ${origin}, a site Tandem may not act on, was held back while the step ran.`,
      origin,
    }))
  if (!refusals.page) return notes.length ? { ...observation, errors: [...(observation.errors ?? []), ...notes] } : observation
  const refused: ObservationError = {
    code: 'PERMISSION_DENIED',
    message: `The page tried to open ${refusals.page}, a site Tandem may not act on; the browser stopped it before anything was sent there (the person can authorise the site in the side panel).`,
    origin: refusals.page,
  }
  const others = (observation.errors ?? []).filter((e) => e.code !== 'PERMISSION_DENIED')
  return { ...observation, status: 'failed', errors: [refused, ...others, ...notes] }
}

/**
 * Waits for the page to settle after an action, so it is read as a person would see it: no DOM changes and no
 * running (finite) CSS transitions or animations for a short quiet window, within a bound.
 *
 * Why 100 ms of quiet: a framework commits an update within a frame or two, and a popup's enter animation starts a
 * frame or two after its node is added (rc-motion, MUI's Grow, Element Plus's transition add a class, then the
 * transition runs). The gaps in that chain stay under ~35 ms; 100 ms covers them with room for a setTimeout-chained
 * render, and still ends early on a page that does nothing. Why 1.5 s at most: antd's and MUI's popups take ~200–300
 * ms, and a page still changing after 1.5 s is changing by itself (a feed, a clock) — it is read then, marked not quiet.
 *
 * What must not hold every step to the bound: infinite animations (spinners) and animations that cannot end before the
 * bound are left out; a node (or attribute) that keeps changing — a ticking clock, a counter, a JS-driven marquee —
 * counts after its first few changes as a ticker and no longer breaks the quiet. New elements always break it: a
 * list that keeps growing (a live feed) is content still arriving, and is read at the bound.
 */
export interface SettleOptions {
  /** How long the page must stay still. Default 100 ms. */
  quietMs?: number
  /** The longest wait. Default 1,500 ms. */
  maxMs?: number
}

export interface Settled {
  /** How long the wait took. */
  ms: number
  /** Whether the page went still within the bound (false: it was read at the bound, or could not be watched). */
  quiet: boolean
}

export const SETTLE_QUIET_MS = 100
export const SETTLE_MAX_MS = 1500
/** Changes of one node (or one attribute of it) after which further ones are a ticker's. */
const TICKER_CHANGES = 4

type Counts = Map<string, number>

/** When the running finite animations end (ms on the performance clock), ignoring those that cannot end by `deadline`. */
export function animationsEnd(doc: Document, now: number, deadline: number): number {
  let end = 0
  let animations: Animation[]
  try {
    animations = doc.getAnimations?.() ?? []
  } catch {
    return 0
  }
  for (const animation of animations) {
    if (animation.playState !== 'running') continue
    const timing = animation.effect?.getComputedTiming()
    const endTime = Number(timing?.endTime)
    if (!Number.isFinite(endTime)) continue
    const current = Number(animation.currentTime ?? 0)
    const rate = Math.abs(animation.playbackRate) || 1
    const left = (animation.playbackRate < 0 ? current : endTime - current) / rate
    if (!(left > 0) || now + left > deadline) continue
    end = Math.max(end, now + left)
  }
  return end
}

/** Resolves once the page has been still for the quiet window, or at the bound; never rejects. */
export function waitForSettle(win: Window, opts: SettleOptions = {}): Promise<Settled> {
  const quietMs = opts.quietMs ?? SETTLE_QUIET_MS
  const maxMs = opts.maxMs ?? SETTLE_MAX_MS
  const clock = win.performance ?? performance
  const now = () => clock.now()
  const start = now()
  const doc = win.document
  // A hidden tab runs no frames and holds its timers to about a second: waiting there would cost a second a step.
  if (!doc?.documentElement || doc.visibilityState === 'hidden') return Promise.resolve({ ms: 0, quiet: false })

  const deadline = start + maxMs
  let last = start
  const seen = new WeakMap<Node, Counts>()
  const added = new WeakSet<Node>()
  const ticking = (record: MutationRecord) => {
    let fresh = false
    for (const node of Array.from(record.addedNodes)) {
      if (node.nodeType !== 1 || added.has(node)) continue
      added.add(node)
      fresh = true
    }
    if (fresh) return false
    const key = record.type === 'attributes' ? `@${record.attributeName}` : record.type
    let counts = seen.get(record.target)
    if (!counts) seen.set(record.target, (counts = new Map()))
    const n = (counts.get(key) ?? 0) + 1
    counts.set(key, n)
    return n > TICKER_CHANGES
  }

  return new Promise<Settled>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const Observer = (win as Window & typeof globalThis).MutationObserver ?? MutationObserver
    const observer = new Observer((records: MutationRecord[]) => {
      if (records.some((r) => !ticking(r))) last = now()
    })
    observer.observe(doc, { attributes: true, childList: true, subtree: true, characterData: true })
    const finish = (quiet: boolean) => {
      observer.disconnect()
      clearTimeout(timer)
      resolve({ ms: Math.round(now() - start), quiet })
    }
    const check = () => {
      // Records not yet delivered would be missed: take them first.
      const pending = observer.takeRecords()
      if (pending.some((r) => !ticking(r))) last = now()
      const t = now()
      const stillAt = Math.max(last + quietMs, animationsEnd(doc, t, deadline))
      if (t >= stillAt) return finish(true)
      if (t >= deadline) return finish(false)
      timer = setTimeout(check, Math.max(1, Math.min(stillAt, deadline) - t))
    }
    timer = setTimeout(check, quietMs)
  })
}

import { isOwnUiRecord as ownUi } from './dom'

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
 * counts after its first few changes as a ticker and no longer breaks the quiet.
 *
 * Why a step that changed nothing waits only 40 ms: watched from before the action, a step whose handlers changed
 * nothing synchronously (a click on plain text) gets two to three frames for a deferred reaction (a render in a rAF,
 * a microtask chain, a short timer); typing, a scroll and a page just loaded get two frames (SETTLE_STILL). The moment
 * anything changes, the full quiet window applies from that change. New elements always break it: a list that keeps
 * growing (a live feed) is content still arriving, and is read at the bound.
 */
export interface SettleOptions {
  /** How long the page must stay still after its last change. Default 100 ms. */
  quietMs?: number
  /** How long a step that changed nothing (yet) is given to start changing. Default 40 ms. */
  unchangedMs?: number
  /** How many frames must be painted after a step that changed nothing. Default 3, as after a change. */
  unchangedFrames?: number
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
export const SETTLE_UNCHANGED_MS = 40
/** Menus that open on hover wait before they show (Element Plus 150 ms, antd 100 ms): a hover gets this long to start. */
export const SETTLE_HOVER_MS = 300
/** Frames that must be painted after the last change too (rc-motion starts a transition two frames after adding). */
const QUIET_FRAMES = 3

/**
 * Typing, scrolling, and a page just loaded (read once the tab says it has loaded, its load handlers run): what they
 * set off shows within a frame or two — an input's render is synchronous or a microtask away, scroll events and
 * IntersectionObserver callbacks run with the next frame and a rAF they schedule with the one after — so two frames,
 * and at least 20 ms, without a change are enough there. A click keeps the longer window: menus and popups that open
 * a moment later (a timer, a chain of frames) are what clicks set off. Anything that does change starts the full
 * quiet window either way.
 */
export const SETTLE_STILL: SettleOptions = { unchangedMs: 20, unchangedFrames: 2 }
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

export interface SettleWatch {
  /** Resolves once the page has been still long enough since the watch began, or at the bound; never rejects. */
  settled(opts?: SettleOptions): Promise<Settled>
  /** Stops watching without waiting (the step needs no settling after all). */
  stop(): void
}

/**
 * Starts watching the page's changes now — before the action runs, so what its handlers change at once counts —
 * and waits for it to settle when `settled` is called (after the action).
 */
export function watchSettle(win: Window, from: 'settled' | 'start' = 'settled'): SettleWatch {
  const clock = win.performance ?? performance
  const now = () => clock.now()
  const began = now()
  const doc = win.document
  const seen = new WeakMap<Node, Counts>()
  const added = new WeakSet<Node>()
  let last = -Infinity
  /** Frames painted since the last change: a busy machine paints late, and a framework's next step waits for a frame. */
  let frames = 0
  const ticking = (record: MutationRecord) => {
    // Tandem's own bar (added as the content script starts, its state set as the step runs) is not the page moving.
    if (ownUi(record)) return true
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
  const note = (records: MutationRecord[]) => {
    if (records.some((r) => !ticking(r))) {
      last = now()
      frames = 0
    }
  }
  const Observer = (win as Window & typeof globalThis).MutationObserver ?? (typeof MutationObserver === 'undefined' ? undefined : MutationObserver)
  const observer = doc?.documentElement && Observer ? new Observer(note) : null
  observer?.observe(doc, { attributes: true, childList: true, subtree: true, characterData: true })
  // Counted from the start when the watch began with the page (see watchLoad), else from `settled`.
  let frame = 0
  /** Set while the wait is only for more frames: it looks again right after the next one, not a whole frame late. */
  let onFrame: (() => void) | null = null
  const tick = () => {
    frames++
    frame = win.requestAnimationFrame(tick)
    onFrame?.()
  }
  if (from === 'start' && observer) frame = win.requestAnimationFrame(tick)
  const stop = () => {
    observer?.disconnect()
    if (frame) win.cancelAnimationFrame(frame)
    frame = 0
  }

  return {
    stop,
    settled(opts = {}) {
      const quietMs = opts.quietMs ?? SETTLE_QUIET_MS
      const maxMs = opts.maxMs ?? SETTLE_MAX_MS
      const unchangedMs = Math.min(opts.unchangedMs ?? SETTLE_UNCHANGED_MS, maxMs)
      const unchangedFrames = opts.unchangedFrames ?? QUIET_FRAMES
      const start = from === 'start' ? began : now()
      // A hidden tab runs no frames and holds its timers to about a second: waiting there would cost a second a step.
      if (!observer || doc.visibilityState === 'hidden') {
        stop()
        return Promise.resolve({ ms: 0, quiet: false })
      }
      const deadline = start + maxMs
      return new Promise<Settled>((resolve) => {
        let timer: ReturnType<typeof setTimeout> | undefined
        const asked = now()
        if (!frame) frame = win.requestAnimationFrame(tick)
        const finish = (quiet: boolean) => {
          stop()
          onFrame = null
          clearTimeout(timer)
          resolve({ ms: Math.round(now() - asked), quiet })
        }
        const check = () => {
          onFrame = null
          clearTimeout(timer)
          // Records not yet delivered would be missed: take them first.
          note(observer.takeRecords())
          const t = now()
          const stillAt = Math.max(last + quietMs, start + unchangedMs, animationsEnd(doc, t, deadline))
          if (t >= stillAt && frames >= (last === -Infinity ? unchangedFrames : QUIET_FRAMES)) return finish(true)
          if (t >= deadline) return finish(false)
          if (t < stillAt) return void (timer = setTimeout(check, Math.max(1, Math.min(stillAt, deadline) - t)))
          // Still long enough, short of frames: looked at once the next frame's callbacks (the page's own) have run.
          onFrame = () => {
            onFrame = null
            clearTimeout(timer)
            timer = setTimeout(check, 0)
          }
          timer = setTimeout(check, Math.min(50, Math.max(1, deadline - t)))
        }
        check()
      })
    },
  }
}

/** Waits for the page to settle from now on, as if a step that changed it had just ended. */
export function waitForSettle(win: Window, opts: SettleOptions = {}): Promise<Settled> {
  const watch = watchSettle(win)
  return watch.settled({ ...opts, unchangedMs: opts.quietMs ?? SETTLE_QUIET_MS })
}

/**
 * The page's settling, watched from the moment the content script starts in it (a page it was registered for): the
 * first reading after the page loads waits as a just-loaded page does (SETTLE_STILL), but counts the stillness (and
 * the changes) since then rather than from when the worker asks. Unused, it stops watching after `lifetimeMs`.
 */
export function watchLoad(win: Window, lifetimeMs = 5000): { take(): SettleWatch | null } {
  let watch: SettleWatch | null = watchSettle(win, 'start')
  const timer = setTimeout(() => {
    watch?.stop()
    watch = null
  }, lifetimeMs)
  return {
    take() {
      clearTimeout(timer)
      const taken = watch
      watch = null
      return taken && { stop: taken.stop, settled: (opts) => taken.settled({ ...SETTLE_STILL, ...opts }) }
    },
  }
}

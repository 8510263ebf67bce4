import type { Action, BarrierMode, ObservationError, RedactSettings, Target, UnmetEffect } from '#protocol'
import type { StorageItemKey } from 'wxt/utils/storage'
import type { IndicatorState } from '../indicator/state'
import { ActOutcome, ContentRequest, type ContentKind, type ContentReply, type PageState, type StopWhy } from '../messages'

/** What the in-page library (extension/lib/page) gives the content script. */
export interface PageLib<M> {
  observe(win: Window, previous: M | undefined): PageState & { memory: M }
  act(win: Window, action: Action, memory: M | undefined, sites?: readonly string[], barrier?: BarrierMode): Promise<{ status: 'done' | 'failed'; errors: ObservationError[]; extracted?: unknown; targetName?: string; unmet?: UnmetEffect; input?: 'cdp' | 'dom'; command?: { name: string; via: 'cdp' | 'dom' } }>
  mask(win: Window, redact?: RedactSettings): () => void
  /** The element a confirmation card is about, brought into view: where it is on screen and what it says. */
  locate(win: Window, target: Target, memory: M | undefined): ContentReply<'locate'>
  /**
   * Watches the page from before `action` runs; `settled` waits for it to go still afterwards. No watch: the action
   * changes nothing. Without an action, `settled` waits from then on (a page just navigated to).
   */
  watchSettle?(win: Window, action?: Action): { settled(): Promise<Settled | undefined> } | undefined
}

type Settled = { ms: number; quiet: boolean }

export interface ContentHandlerDeps<M> {
  win: Window
  page: PageLib<M>
  /** chrome.storage.local, where an action's result is left before the worker is answered. */
  store: { get(key: StorageItemKey): Promise<unknown>; set(key: StorageItemKey, value: unknown): Promise<void> }
  /** The in-page indicator: set by the worker, hidden while a screenshot is taken. */
  indicator?: { set(state: IndicatorState): void; state(): IndicatorState; conceal(): () => void }
  now?: () => number
  /** The page's settling watched since the content script started (see watchLoad): the first reading waits on it. */
  loaded?: { take(): { settled(): Promise<Settled>; stop(): void } | null }
}

const nextFrame = (win: Window) =>
  new Promise<void>((resolve) => {
    // A hidden tab paints nothing, runs no rAF and holds its timers up to a second; the debugger's capture renders
    // the page as it is now, so there is no frame to wait for.
    if (win.document?.visibilityState === 'hidden') return resolve()
    // rAF may still not run (an occluded window): the timer keeps masking from hanging there.
    const timer = setTimeout(resolve, 100)
    win.requestAnimationFrame(() => win.requestAnimationFrame(() => (clearTimeout(timer), resolve())))
  })

type PageOutcome = Awaited<ReturnType<PageLib<unknown>['act']>>

/** Answers the worker's requests inside the page; one instance per document. */
export function createContentHandler<M>(deps: ContentHandlerDeps<M>) {
  const now = deps.now ?? (() => performance.now())
  let memory: M | undefined
  const running = new Map<string, Promise<ActOutcome>>()
  let restore: (() => void) | null = null
  let restoreTimer: ReturnType<typeof setTimeout> | undefined
  let revealIndicator: (() => void) | null = null
  /** Ends a running action early (a long wait of a task the person stopped or took over). */
  const stoppers = new Map<string, (why: StopWhy) => void>()

  function unmask() {
    clearTimeout(restoreTimer)
    revealIndicator?.()
    revealIndicator = null
    const undo = restore
    restore = null
    undo?.()
    return !!undo
  }

  function observe(): PageState {
    const { memory: next, ...state } = deps.page.observe(deps.win, memory)
    memory = next
    return state
  }

  async function act(action: Action, resultKey: StorageItemKey, sites: readonly string[] | undefined, barrier: BarrierMode | undefined): Promise<ActOutcome> {
    const stored = ActOutcome.safeParse(await deps.store.get(resultKey))
    if (stored.success) return stored.data
    unmask()
    const started = now()
    // The page's first moves after its load belong to the action's watch from here on.
    deps.loaded?.take()?.stop()
    const watch = deps.page.watchSettle?.(deps.win, action)
    let outcome: PageOutcome
    const stopped = new Promise<PageOutcome>((resolve) =>
      stoppers.set(action.actionId, (why) => resolve({ status: 'failed', errors: [stoppedError(why)] })),
    )
    try {
      outcome = await Promise.race([deps.page.act(deps.win, action, memory, sites, barrier), stopped])
    } catch (error) {
      outcome = { status: 'failed', errors: [{ code: 'ACTION_FAILED', message: `The action failed in the page: ${(error as Error)?.message ?? error}` }] }
    } finally {
      stoppers.delete(action.actionId)
    }
    const actMs = now() - started
    const acted: ActOutcome = {
      actionId: action.actionId,
      status: outcome.status,
      errors: outcome.errors,
      ...(outcome.extracted === undefined ? {} : { extracted: outcome.extracted }),
      ...(outcome.targetName ? { targetName: outcome.targetName.slice(0, 200) } : {}),
      ...(outcome.unmet ? { unmet: outcome.unmet } : {}),
      ...(outcome.input ? { input: outcome.input } : {}),
      ...(outcome.command ? { command: outcome.command } : {}),
      timing: { actMs },
    }
    // Stored at once when the page is to settle first: a page the step sends away (a form posted) unloads while it
    // settles, and the worker still finds what the step did; a worker that dies meanwhile finds it on its next wake
    // instead of re-running.
    const storing = watch ? deps.store.set(resultKey, acted) : undefined
    // Read the page as the action left it once it stops moving (a popup fading in), not the instant the handler ran.
    const settled = await watch?.settled().catch(() => undefined)
    await storing
    const settledAt = now()
    let page: PageState | undefined
    try {
      page = observe()
    } catch {
      page = undefined
    }
    const result: ActOutcome = {
      ...acted,
      ...(page ? { page } : {}),
      ...(settled ? { settle: settled } : {}),
      timing: { actMs, ...(settled ? { settleMs: settledAt - started - actMs } : {}), observeMs: now() - settledAt },
    }
    const storingAll = deps.store.set(resultKey, result)
    // With the reading: awaited only when nothing was stored before it. After a settle, the copy from before it
    // already says what the step did, and the worker gets this one in the answer.
    if (storing) storingAll.catch(() => undefined)
    else await storingAll
    return result
  }

  const handlers: { [K in ContentKind]: (request: Extract<ContentRequest, { kind: K }>) => Promise<ContentReply<K>> } = {
    ping: async () => ({ ready: true }),
    observe: async ({ settle }) => {
      const watch = settle ? (deps.loaded?.take() ?? deps.page.watchSettle?.(deps.win)) : undefined
      const settled = await watch?.settled().catch(() => undefined)
      return { ...observe(), ...(settled ? { settle: settled } : {}) }
    },
    act: ({ action, resultKey, sites, barrier }) => {
      // The same action asked twice (a retried message) shares one run.
      const existing = running.get(action.actionId)
      if (existing) return existing
      const run = act(action, resultKey, sites, barrier)
      running.set(action.actionId, run)
      return run
    },
    mask: async ({ restoreAfterMs, redact, paint }) => {
      unmask()
      // Screenshots show the page, never Tandem's own bar.
      revealIndicator = deps.indicator?.conceal() ?? null
      try {
        restore = deps.page.mask(deps.win, redact)
      } catch {
        unmask()
        return { masked: false }
      }
      // If the worker dies before unmasking, the person still gets their fields back.
      restoreTimer = setTimeout(unmask, restoreAfterMs)
      if (paint !== false) await nextFrame(deps.win)
      return { masked: true }
    },
    unmask: async () => ({ restored: unmask() }),
    locate: async ({ target }) => deps.page.locate(deps.win, target, memory),
    stop: async ({ actionId, why }) => {
      const stop = stoppers.get(actionId)
      stop?.(why ?? 'stopped')
      return { stopped: !!stop }
    },
    indicator: async ({ state }) => {
      deps.indicator?.set(state)
      return { state: deps.indicator?.state() ?? 'idle' }
    },
  }

  return {
    /** Validates a message from the worker and answers it; a failure becomes `{error}`, never a lost exception. */
    async handle(message: unknown): Promise<unknown> {
      const request = ContentRequest.safeParse(message)
      if (!request.success) return { error: 'Not a Tandem request.' }
      try {
        return await (handlers[request.data.kind] as (r: ContentRequest) => Promise<unknown>)(request.data)
      } catch (error) {
        return { error: String((error as Error)?.message ?? error) }
      }
    },
  }
}

/** A step ended by the person taking over is theirs (TAKEN_OVER), not a failure of the step or of the page. */
const stoppedError = (why: StopWhy) =>
  why === 'taken-over'
    ? { code: 'TAKEN_OVER' as const, message: 'The person took over while this action ran, so it was ended there.' }
    : { code: 'ACTION_FAILED' as const, message: 'The task was stopped while this action ran.' }

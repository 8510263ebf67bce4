import { allowedBy, asksAlways, classifyRequest, siteOf, type AskAlwaysRule, type RedactSettings, type RequestFacts, type WriteAllowRule } from '#protocol'
import type { TabDebugger } from './debugger'
import { AUTO_ATTACH, WRITE_REQUESTS, type PausedEvent, type Watch } from './barrier-watch'
import { serialChanges, sessionHoldStore, type Hold, type HoldStore } from './held-store'

export type { Hold, HoldStore } from './held-store'

type DebuggerEvent = (source: { tabId?: number; sessionId?: string }, method: string, params?: unknown) => void

export interface WriteBarrierDeps {
  debugger: Pick<TabDebugger, 'send' | 'sendToSession' | 'detach'> & Partial<Pick<TabDebugger, 'attachment'>>
  /** chrome.debugger.onEvent */
  events: { addListener(cb: DebuggerEvent): void }
  store?: HoldStore
  now?: () => number
  classify?: (facts: RequestFacts, redact?: RedactSettings) => ReturnType<typeof classifyRequest>
  /** How long the barrier stays on, letting everything go, after a step that held nothing (see stepEnded). */
  lingerMs?: number
}

/**
 * The write barrier. While a step the person has not approved runs in the task's tab, every request the page
 * sends (its frames and workers included, through auto-attached child sessions) is paused by CDP `Fetch` before it
 * leaves the browser and judged by classifyRequest: reads go on, telemetry is dropped, writes are held, for the
 * person to approve (the same request then goes on) or refuse (it fails). Disabling `Fetch` or detaching lets every
 * paused request go on, so held requests are always decided before either, and outlive a stopped worker in storage.
 */
export function createWriteBarrier(deps: WriteBarrierDeps) {
  const store: HoldStore = deps.store ?? sessionHoldStore
  const now = deps.now ?? Date.now
  const classify = deps.classify ?? ((facts: RequestFacts, redact?: RedactSettings) => classifyRequest(facts, undefined, redact))
  const watches = new Map<number, Watch>()
  const change = serialChanges(store)
  const lingerMs = deps.lingerMs ?? 1000
  const attachment = (tabId: number) => deps.debugger.attachment?.(tabId)

  const send = (tabId: number, sessionId: string | undefined, method: string, params: Record<string, unknown> = {}) =>
    sessionId ? deps.debugger.sendToSession(tabId, sessionId, method, params) : deps.debugger.send(tabId, method, params)

  const goOn = (tabId: number, sessionId: string | undefined, requestId: string) =>
    send(tabId, sessionId, 'Fetch.continueRequest', { requestId }).catch((error: unknown) => console.warn('[tandem] a request could not go on', error))

  async function paused(tabId: number, sessionId: string | undefined, event: PausedEvent) {
    const watch = watches.get(tabId)
    if (!watch || watch.mode === 'pass') return goOn(tabId, sessionId, event.requestId)
    // Counted once judged, so a step that sees the count knows whether the document was held.
    const judgedDocument = () => {
      if (!sessionId && event.resourceType === 'Document') watch.documents++
    }
    let judged = classify({
      method: event.request.method,
      url: event.request.url,
      resourceType: event.resourceType,
      headers: event.request.headers,
      postData: event.request.postData,
      pageUrl: watch.pageUrl,
    }, watch.redact)
    // A harmless write goes on unasked and is reported with its kind, unless the person asks about that kind there.
    const harmless = judged.verdict === 'pass' && judged.kind
    if (harmless && asksAlways(watch.askAlways, siteOf(judged.request.origin), harmless)) judged = { ...judged, verdict: 'hold' }
    else if (harmless) watch.harmless.push({ kind: harmless, request: judged.request })
    if (judged.verdict === 'pass') {
      judgedDocument()
      return goOn(tabId, sessionId, event.requestId)
    }
    if (judged.verdict === 'hold' && allowedBy(watch.allow, judged.request)) {
      judgedDocument()
      watch.allowed.push(judged.request)
      return goOn(tabId, sessionId, event.requestId)
    }
    if (judged.verdict === 'drop') {
      judgedDocument()
      watch.dropped.push(judged.request)
      return send(tabId, sessionId, 'Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' }).catch(() => undefined)
    }
    const hold: Hold = {
      id: event.requestId,
      reason: judged.reason,
      request: judged.request,
      tabId,
      ...(sessionId ? { sessionId } : {}),
      taskId: watch.taskId,
      stepId: watch.stepId,
      at: now(),
    }
    await change((holds) => ({ holds: [...holds.filter((h) => h.id !== hold.id), hold], result: undefined }))
    judgedDocument()
    watch.wake()
  }

  async function childAttached(tabId: number, params: { sessionId: string; waitingForDebugger?: boolean }) {
    const watch = watches.get(tabId)
    try {
      if (watch) {
        watch.sessions.add(params.sessionId)
        await send(tabId, params.sessionId, 'Fetch.enable', WRITE_REQUESTS)
        await send(tabId, params.sessionId, 'Target.setAutoAttach', AUTO_ATTACH)
      }
    } catch (error) {
      console.warn('[tandem] the barrier could not cover a frame or worker', error)
    } finally {
      // A child waits for this before it runs (waitForDebuggerOnStart): it must never be left waiting.
      if (params.waitingForDebugger) await send(tabId, params.sessionId, 'Runtime.runIfWaitingForDebugger').catch(() => undefined)
    }
  }

  deps.events.addListener((source, method, params) => {
    const tabId = source.tabId
    if (tabId === undefined) return
    if (method === 'Fetch.requestPaused') void paused(tabId, source.sessionId, params as PausedEvent)
    else if (method === 'Target.attachedToTarget') void childAttached(tabId, params as { sessionId: string; waitingForDebugger?: boolean })
    else if (method === 'Target.detachedFromTarget') watches.get(tabId)?.sessions.delete((params as { sessionId: string }).sessionId)
    else if (method === 'Network.webSocketCreated') socketOpened(tabId, params as { url: string })
  })

  /** A WebSocket the page opens while the step runs: Fetch cannot pause it, a session rule blocks it; this says which. */
  function socketOpened(tabId: number, params: { url: string }) {
    const watch = watches.get(tabId)
    if (!watch || watch.mode !== 'hold') return
    const judged = classify({ method: 'GET', url: params.url, resourceType: 'WebSocket', pageUrl: watch.pageUrl }, watch.redact)
    if (judged.verdict !== 'pass') watch.sockets.push(judged.request)
  }

  async function decide(holds: Hold[], command: 'Fetch.continueRequest' | 'Fetch.failRequest'): Promise<{ done: Hold[]; gone: Hold[] }> {
    const done: Hold[] = []
    const gone: Hold[] = []
    for (const hold of holds) {
      const params = command === 'Fetch.failRequest' ? { requestId: hold.id, errorReason: 'BlockedByClient' } : { requestId: hold.id }
      try {
        await send(hold.tabId, hold.sessionId, command, params)
        done.push(hold)
      } catch {
        // The page went away, or the browser let go of the tab: the request no longer waits.
        gone.push(hold)
      }
    }
    const ids = new Set(holds.map((h) => h.id))
    await change((all) => ({ holds: all.filter((h) => !ids.has(h.id)), result: undefined }))
    return { done, gone }
  }

  /** Fetch off everywhere on the tab; a worker that did not turn it on (a restarted one) turns it off too. */
  async function off(tabId: number) {
    const watch = watches.get(tabId)
    watches.delete(tabId)
    clearTimeout(watch?.linger)
    for (const sessionId of watch?.sessions ?? []) await send(tabId, sessionId, 'Fetch.disable').catch(() => undefined)
    await send(tabId, undefined, 'Target.setAutoAttach', { autoAttach: false, waitForDebuggerOnStart: false, flatten: true }).catch(() => undefined)
    await send(tabId, undefined, 'Fetch.disable').catch(() => undefined)
    await send(tabId, undefined, 'Network.disable').catch(() => undefined)
    if (watch?.adopted) await deps.debugger.detach(tabId)
  }

  const self = {
    /**
     * Holds the tab's writes while the step `stepId` runs. False when the debugger cannot be had (declined,
     * another debugger): nothing is held then.
     */
    async engage(
      tabId: number,
      step: {
        taskId: string
        stepId: string
        pageUrl: string | undefined
        redact?: RedactSettings
        allow?: WriteAllowRule[]
        askAlways?: AskAlwaysRule[]
        adopted?: boolean
        inherit?: string
      },
    ): Promise<boolean> {
      const earlier = watches.get(tabId)
      clearTimeout(earlier?.linger)
      // Taken over from the last step's tail (see createStepTail): what it held since is this step's to report.
      const inherit = step.inherit
      if (inherit) await change((holds) => ({ holds: holds.map((h) => (h.stepId === inherit ? { ...h, stepId: step.stepId } : h)), result: undefined }))
      // Still on from the last step, in the same attachment of the debugger: Fetch pauses the page's requests already.
      const on = earlier?.linger !== undefined && earlier.attachment !== undefined && earlier.attachment === attachment(tabId)
      const watch: Watch = {
        ...step,
        mode: 'hold',
        sessions: earlier?.sessions ?? new Set(),
        documents: 0,
        dropped: [],
        allowed: [],
        harmless: [],
        sockets: [],
        wake: () => undefined,
        ...(on ? { attachment: earlier!.attachment } : {}),
      }
      watches.set(tabId, watch)
      if (on) return true
      try {
        // Sent together (the browser runs a session's commands in order); one that fails leaves the others harmless, as
        // a request paused with no watch goes on.
        await Promise.all([
          deps.debugger.send(tabId, 'Fetch.enable', WRITE_REQUESTS),
          deps.debugger.send(tabId, 'Target.setAutoAttach', AUTO_ATTACH),
          // Only for the WebSocket openings it names (webSocketCreated); no bodies are kept.
          deps.debugger.send(tabId, 'Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 }),
        ])
        watch.attachment = attachment(tabId)
        return true
      } catch (error) {
        console.warn('[tandem] the write barrier could not be set on the task tab', error)
        watches.delete(tabId)
        return false
      }
    },

    /** Waits until the step holds a write or the time `until` (ms) comes; true when something is held. */
    async waitForHold(tabId: number, stepId: string, until: number, stop?: () => boolean): Promise<boolean> {
      for (;;) {
        if ((await self.held(stepId)).length) return true
        const watch = watches.get(tabId)
        const wait = until - now()
        if (!watch || wait <= 0 || stop?.()) return false
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.min(wait, 100))
          function done() {
            clearTimeout(timer)
            watch!.wake = () => undefined
            resolve()
          }
          watch.wake = done
        })
      }
    },

    /** How many top-frame documents the page asked for since the step began (a navigation the barrier has judged). */
    documents: (tabId: number) => watches.get(tabId)?.documents ?? 0,

    /** What the step dropped as telemetry so far. */
    dropped: (tabId: number) => [...(watches.get(tabId)?.dropped ?? [])],

    /** The WebSocket openings the page tried while the step ran (the write block stopped them). */
    sockets: (tabId: number) => [...(watches.get(tabId)?.sockets ?? [])],

    /** The writes the step let go on because the person always allows them, so far. */
    allowed: (tabId: number) => [...(watches.get(tabId)?.allowed ?? [])],

    /** The harmless writes the step let go on unasked, with their kinds, so far. */
    harmless: (tabId: number) => [...(watches.get(tabId)?.harmless ?? [])],

    /** The writes held for a step, or for a task (every step of it). */
    async held(stepOrTask: string): Promise<Hold[]> {
      return (await store.get()).filter((h) => h.stepId === stepOrTask || h.taskId === stepOrTask)
    },

    /**
     * The step is over: with nothing held the barrier comes off; with writes held it stays, letting anything new go
     * on (the person may use the page while deciding), until they are decided.
     */
    async stepEnded(tabId: number): Promise<void> {
      const watch = watches.get(tabId)
      if (!watch) return
      const holds = (await store.get()).filter((h) => h.tabId === tabId)
      watch.mode = 'pass'
      if (holds.length) return
      if (watch.adopted || watch.attachment === undefined) return off(tabId)
      // A task's next step usually follows at once and would turn it all on again: it stays on a moment, letting
      // everything go. Let go of meanwhile, the debugger took Fetch with it: nothing is sent to attach it again.
      watch.linger = setTimeout(() => {
        if (watches.get(tabId) !== watch) return
        if (watch.attachment === attachment(tabId)) void off(tabId)
        else watches.delete(tabId)
      }, lingerMs)
    },

    /** The person approved: these held requests go on, exactly as the page sent them. */
    async release(ids: readonly string[]): Promise<{ released: Hold[]; gone: Hold[] }> {
      const holds = (await store.get()).filter((h) => ids.includes(h.id))
      const { done, gone } = await decide(holds, 'Fetch.continueRequest')
      for (const tabId of new Set(holds.map((h) => h.tabId))) await self.settle(tabId)
      return { released: done, gone }
    },

    /** Held requests that must not go on (rejected, the task moved on, paused or ended): they fail in the browser. */
    async refuse(which: (hold: Hold) => boolean): Promise<Hold[]> {
      const holds = (await store.get()).filter(which)
      if (!holds.length) return []
      const { done } = await decide(holds, 'Fetch.failRequest')
      for (const tabId of new Set(holds.map((h) => h.tabId))) await self.settle(tabId)
      return done
    },

    /** A barrier still on after its step (see stepEnded) comes off now: the page the tab loads next would wait on it. */
    async rest(tabId: number): Promise<void> {
      const watch = watches.get(tabId)
      if (watch?.mode === 'pass' && watch.linger !== undefined) await off(tabId)
    },

    /** Takes the barrier off a tab with nothing left held and no step running. */
    async settle(tabId: number): Promise<void> {
      const watch = watches.get(tabId)
      if (watch?.mode === 'hold') return
      if ((await store.get()).some((h) => h.tabId === tabId)) return
      await off(tabId)
    },
  }
  return self
}
export type WriteBarrier = ReturnType<typeof createWriteBarrier>

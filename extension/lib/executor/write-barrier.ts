import { allowedBy, asksAlways, classifyRequest, classifySocketFrame, siteOf, type RedactSettings, type RequestClassification, type RequestFacts, type SocketFrameFacts } from '#protocol'
import type { TabDebugger } from './debugger'
import { AUTO_ATTACH, WRITE_REQUESTS, type BarrierStep, type PausedEvent, type SocketLeak, type Watch } from './barrier-watch'
import { serialChanges, sessionHoldStore, type Hold, type HoldStore } from './held-store'
import { base64Bytes, createSocketSends, type FrameSentEvent } from './socket-sends'
import { parseFrameCall, SOCKET_BINDING, type SocketFrameCall } from './socket-wrapper'

export type { Hold, HoldStore } from './held-store'

type DebuggerEvent = (source: { tabId?: number; sessionId?: string }, method: string, params?: unknown) => void

export interface WriteBarrierDeps {
  debugger: Pick<TabDebugger, 'send' | 'sendToSession' | 'detach'> & Partial<Pick<TabDebugger, 'attachment'>>
  /** chrome.debugger.onEvent */
  events: { addListener(cb: DebuggerEvent): void }
  store?: HoldStore
  now?: () => number
  classify?: (facts: RequestFacts, redact?: RedactSettings) => ReturnType<typeof classifyRequest>
  classifyFrame?: (facts: SocketFrameFacts, redact?: RedactSettings) => ReturnType<typeof classifySocketFrame>
  /** How long the barrier stays on, letting everything go, after a step that held nothing (see stepEnded). */
  lingerMs?: number
}

/**
 * The write barrier. While a step the person has not approved runs in the task's tab, every request the page
 * sends (its frames and workers included, through auto-attached child sessions) is paused by CDP `Fetch` before it
 * leaves the browser and judged by classifyRequest: reads go on, telemetry is dropped, writes are held, for the
 * person to approve (the same request then goes on) or refuse (it fails). Disabling `Fetch` or detaching lets every
 * paused request go on, so held requests are always decided before either, and outlive a stopped worker in storage.
 *
 * Fetch cannot pause a WebSocket message: a wrapper in the page's own worlds keeps each message sent on an open
 * socket while the step runs (socket-wrapper.ts), and the barrier judges it as it judges a request (classifySocketFrame)
 * and holds it the same way. A message that leaves unheld all the same (a page that kept the native send from before
 * the wrapper) is seen sent (Network.webSocketFrameSent) and fails the step: see `leaked`.
 */
export function createWriteBarrier(deps: WriteBarrierDeps) {
  const store: HoldStore = deps.store ?? sessionHoldStore
  const now = deps.now ?? Date.now
  const classify = deps.classify ?? ((facts: RequestFacts, redact?: RedactSettings) => classifyRequest(facts, undefined, redact))
  const watches = new Map<number, Watch>()
  const change = serialChanges(store)
  const lingerMs = deps.lingerMs ?? 1000
  const attachment = (tabId: number) => deps.debugger.attachment?.(tabId)
  const classifyFrame = deps.classifyFrame ?? ((facts: SocketFrameFacts, redact?: RedactSettings) => classifySocketFrame(facts, redact))

  const send = (tabId: number, sessionId: string | undefined, method: string, params: Record<string, unknown> = {}) =>
    sessionId ? deps.debugger.sendToSession(tabId, sessionId, method, params) : deps.debugger.send(tabId, method, params)
  const sockets = createSocketSends(send)
  const NETWORK = { maxTotalBufferSize: 0, maxResourceBufferSize: 0 }

  const goOn = (tabId: number, sessionId: string | undefined, requestId: string) =>
    send(tabId, sessionId, 'Fetch.continueRequest', { requestId }).catch((error: unknown) => console.warn('[tandem] a request could not go on', error))

  async function paused(tabId: number, sessionId: string | undefined, event: PausedEvent) {
    const watch = watches.get(tabId)
    if (!watch || watch.mode === 'pass') return goOn(tabId, sessionId, event.requestId)
    // Counted once judged, so a step that sees the count knows whether the document was held.
    const judgedDocument = () => {
      if (!sessionId && event.resourceType === 'Document') watch.documents++
    }
    const { request } = event
    const facts = { method: request.method, url: request.url, resourceType: event.resourceType, headers: request.headers, postData: request.postData, pageUrl: watch.pageUrl }
    const judged = harmlessOrAsked(watch, classify(facts, watch.redact))
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
    await keep(watch, { id: event.requestId, reason: judged.reason, request: judged.request, tabId, ...(sessionId ? { sessionId } : {}) })
    judgedDocument()
  }

  /** Holds what the step sent, for the person: stored as the step's, and the step's wait for a hold woken. */
  async function keep(watch: Watch, sent: Omit<Hold, 'taskId' | 'stepId' | 'at'>) {
    const hold: Hold = { ...sent, taskId: watch.taskId, stepId: watch.stepId, at: now() }
    await change((holds) => ({ holds: [...holds.filter((h) => h.id !== hold.id), hold], result: undefined }))
    watch.wake()
  }

  const frameData = (frame: { text?: string; binary?: string }): SocketFrameFacts['data'] =>
    frame.text !== undefined ? frame.text : { binary: Uint8Array.from(atob(frame.binary ?? ''), (c) => c.charCodeAt(0)) }

  /** A harmless write goes on unasked and is reported with its kind, unless the person asks about that kind there. */
  function harmlessOrAsked(watch: Watch, judged: RequestClassification): RequestClassification {
    const kind = judged.verdict === 'pass' ? judged.kind : undefined
    if (!kind) return judged
    if (asksAlways(watch.askAlways, siteOf(judged.request.origin), kind)) return { ...judged, verdict: 'hold' }
    watch.harmless.push({ kind, request: judged.request })
    return judged
  }

  /** A message the page's wrapper keeps, named through the binding: it goes, or it is held like a request. */
  async function frameKept(tabId: number, sessionId: string | undefined, params: { name: string; payload: string; executionContextId: number }) {
    if (params.name !== SOCKET_BINDING) return
    const frame = parseFrameCall(params.payload)
    if (!frame) return
    const contextId = params.executionContextId
    const letGo = (verdict: 'go' | 'now') => {
      sockets.expect(tabId, frame)
      return sockets.decide(tabId, sessionId, contextId, frame.id, verdict).catch(() => undefined)
    }
    const watch = watches.get(tabId)
    // Held in a page the barrier no longer holds (the step ended meanwhile): the person's page sends as it wants.
    if (!watch || watch.mode === 'pass') return letGo('go')
    const judged = harmlessOrAsked(watch, classifyFrame({ url: frame.url, data: frameData(frame), bytes: frame.bytes, pageUrl: watch.pageUrl }, watch.redact))
    // A keep-alive goes at once, ahead of a held message on its socket: a server that hears none closes it.
    if (judged.verdict === 'pass') return letGo(judged.reason === 'socket-keepalive' ? 'now' : 'go')
    if (allowedBy(watch.allow, judged.request)) {
      watch.allowed.push(judged.request)
      return letGo('go')
    }
    await keep(watch, {
      id: frameHoldId(sessionId, contextId, frame),
      reason: judged.reason,
      request: judged.request,
      tabId,
      ...(sessionId ? { sessionId } : {}),
      via: 'socket',
      contextId,
      frame: frame.id,
    })
  }

  /**
   * The backstop: a message the browser sent on a socket while the step held, that no wrapper let go on purpose.
   * A keep-alive or a read is nobody's concern; anything else left unasked, and the step says so.
   */
  function frameSent(tabId: number, params: FrameSentEvent) {
    const watch = watches.get(tabId)
    if (!watch || watch.mode !== 'hold' || !watch.socketsHeld) return
    const { opcode, payloadData } = params.response ?? {}
    if ((opcode !== 1 && opcode !== 2) || typeof payloadData !== 'string') return
    if (sockets.asked(tabId, params)) return
    const url = sockets.urlOf(tabId, params.requestId) ?? ''
    const data = opcode === 1 ? payloadData : frameData({ binary: payloadData })
    const judged = classifyFrame({ url, data, pageUrl: watch.pageUrl }, watch.redact)
    if (judged.verdict === 'pass' || allowedBy(watch.allow, judged.request)) return
    watch.leaks.push({ url: url ? judged.request.url : '', bytes: judged.request.bytes ?? (opcode === 1 ? 0 : base64Bytes(payloadData)) })
  }

  async function childAttached(tabId: number, params: { sessionId: string; waitingForDebugger?: boolean }) {
    const watch = watches.get(tabId)
    try {
      if (watch) {
        watch.sessions.add(params.sessionId)
        await send(tabId, params.sessionId, 'Fetch.enable', WRITE_REQUESTS)
        await send(tabId, params.sessionId, 'Target.setAutoAttach', AUTO_ATTACH)
        // Its worlds get the socket wrapper as they come up, and what its sockets send is seen (the backstop).
        await sockets.cover(tabId, params.sessionId).catch((error: unknown) => console.warn('[tandem] the barrier could not watch the sockets of a frame or worker', error))
        await send(tabId, params.sessionId, 'Network.enable', NETWORK).catch(() => undefined)
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
    else if (method === 'Target.detachedFromTarget') {
      const sessionId = (params as { sessionId: string }).sessionId
      watches.get(tabId)?.sessions.delete(sessionId)
      sockets.sessionGone(tabId, sessionId)
    } else if (method === 'Network.webSocketCreated') socketOpened(tabId, params as { requestId: string; url: string })
    else if (method === 'Runtime.bindingCalled') void frameKept(tabId, source.sessionId, params as { name: string; payload: string; executionContextId: number })
    else if (method === 'Runtime.executionContextCreated') sockets.contextCreated(tabId, source.sessionId, params as { context: { id: number } })
    else if (method === 'Runtime.executionContextDestroyed') sockets.contextGone(tabId, source.sessionId, (params as { executionContextId: number }).executionContextId)
    else if (method === 'Runtime.executionContextsCleared') sockets.contextGone(tabId, source.sessionId)
    else if (method === 'Network.webSocketFrameSent') frameSent(tabId, params as FrameSentEvent)
  })

  /** A WebSocket the page opens while the step runs: Fetch cannot pause it, a session rule blocks it; this says which. */
  function socketOpened(tabId: number, params: { requestId: string; url: string }) {
    const watch = watches.get(tabId)
    if (watch) sockets.socketOpened(tabId, params.requestId, params.url)
    if (!watch || watch.mode !== 'hold') return
    const judged = classify({ method: 'GET', url: params.url, resourceType: 'WebSocket', pageUrl: watch.pageUrl }, watch.redact)
    if (judged.verdict !== 'pass') watch.sockets.push(judged.request)
  }

  async function decide(holds: Hold[], command: 'Fetch.continueRequest' | 'Fetch.failRequest'): Promise<{ done: Hold[]; gone: Hold[] }> {
    const done: Hold[] = []
    const gone: Hold[] = []
    for (const hold of holds) {
      if (hold.via === 'socket') {
        const verdict = command === 'Fetch.failRequest' ? 'drop' : 'go'
        const outcome = await sockets.decide(hold.tabId, hold.sessionId, hold.contextId ?? 0, hold.frame ?? 0, verdict).catch(() => 'gone' as const)
        ;(outcome === 'gone' ? gone : done).push(hold)
        continue
      }
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
    // The wrappers stay in the page, letting every message go; nothing the page sends is watched any more.
    await sockets.mode(tabId, false)
    sockets.forget(tabId)
    for (const sessionId of watch?.sessions ?? []) {
      await send(tabId, sessionId, 'Fetch.disable').catch(() => undefined)
      await send(tabId, sessionId, 'Runtime.disable').catch(() => undefined)
      await send(tabId, sessionId, 'Network.disable').catch(() => undefined)
    }
    await send(tabId, undefined, 'Target.setAutoAttach', { autoAttach: false, waitForDebuggerOnStart: false, flatten: true }).catch(() => undefined)
    await send(tabId, undefined, 'Fetch.disable').catch(() => undefined)
    await send(tabId, undefined, 'Runtime.disable').catch(() => undefined)
    await send(tabId, undefined, 'Network.disable').catch(() => undefined)
    if (watch?.adopted) await deps.debugger.detach(tabId)
  }

  /** The wrappers hold from now on; a frame seen sent unasked after this counts against the step. */
  async function holdSockets(tabId: number, watch: Watch) {
    await sockets.mode(tabId, true)
    if (watches.get(tabId) === watch && watch.mode === 'hold') watch.socketsHeld = true
  }

  const self = {
    /**
     * Holds the tab's writes while the step `stepId` runs. False when the debugger cannot be had (declined,
     * another debugger): nothing is held then.
     */
    async engage(
      tabId: number,
      step: BarrierStep,
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
        leaks: [],
        wake: () => undefined,
        ...(on ? { attachment: earlier!.attachment } : {}),
      }
      watches.set(tabId, watch)
      if (on) {
        await holdSockets(tabId, watch)
        return true
      }
      try {
        // Sent together (the browser runs a session's commands in order); one that fails leaves the others harmless, as
        // a request paused with no watch goes on.
        await Promise.all([
          deps.debugger.send(tabId, 'Fetch.enable', WRITE_REQUESTS),
          deps.debugger.send(tabId, 'Target.setAutoAttach', AUTO_ATTACH),
          // For the WebSocket openings it names (webSocketCreated) and the messages sent (the backstop); no bodies kept.
          deps.debugger.send(tabId, 'Network.enable', NETWORK),
          sockets.cover(tabId, undefined).catch((error: unknown) => console.warn('[tandem] the barrier could not watch the page’s sockets', error)),
        ])
        watch.attachment = attachment(tabId)
        await holdSockets(tabId, watch)
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

    /** Messages the page sent over a WebSocket while the step ran that nothing held: they left unasked. */
    leaked: (tabId: number): SocketLeak[] => [...(watches.get(tabId)?.leaks ?? [])],

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
      watch.socketsHeld = false
      // Told only in the debugger's same attachment: a tab let go of meanwhile is not attached again for it. Not waited
      // for: a page whose navigation is held answers no evaluation until it is decided, and the tab's commands run in
      // order, so the next step's hold comes after this.
      if (watch.attachment === attachment(tabId)) void sockets.mode(tabId, false).catch(() => undefined)
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

/** A held message's id, unique across the tab's sessions and worlds (a request's is CDP's own). */
const frameHoldId = (sessionId: string | undefined, contextId: number, frame: SocketFrameCall) => `socket:${sessionId ?? 'top'}:${contextId}:${frame.id}`

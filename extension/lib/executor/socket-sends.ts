import { decideSocketFrame, installSocketHold, SOCKET_BINDING, type SocketOutcome, type SocketVerdict } from './socket-wrapper'

type Send = (tabId: number, sessionId: string | undefined, method: string, params?: Record<string, unknown>) => Promise<unknown>

/** A context CDP reports (Runtime.executionContextCreated); only a frame's or worker's own world is the page's. */
interface ContextEvent {
  context: { id: number; auxData?: { isDefault?: boolean; type?: string } }
}

export interface FrameSentEvent {
  requestId: string
  response: { opcode: number; payloadData: string }
}

const key = (sessionId: string | undefined) => sessionId ?? ''

/**
 * The barrier's hand on the WebSocket messages of a task's tab: it puts the wrapper (socket-wrapper.ts) in every
 * world of the page's frames and workers (each session's default contexts, as CDP reports them), says whether it
 * holds, and decides the frames it keeps. It also knows which frames it let go on purpose, so the barrier can tell a
 * frame that left unheld (a page that kept `send` from before the wrapper) from one it let go.
 */
export function createSocketSends(send: Send) {
  /** Per tab, the page's own contexts in each session ('' is the tab's own). */
  const contexts = new Map<number, Map<string, Set<number>>>()
  const holding = new Map<number, boolean>()
  /** Per tab, what the frames let go on purpose look like on the wire (see wireKey), not yet seen sent. */
  const expected = new Map<number, string[]>()
  /** Per tab, the address of each socket by CDP's request id, as Network.webSocketCreated named it. */
  const urls = new Map<number, Map<string, string>>()

  const evaluate = (tabId: number, sessionId: string | undefined, expression: string, contextId?: number) =>
    send(tabId, sessionId, 'Runtime.evaluate', { expression, returnByValue: true, silent: true, ...(contextId !== undefined ? { contextId } : {}) }) as Promise<{
      result?: { value?: unknown }
      exceptionDetails?: unknown
    }>

  const install = (tabId: number, sessionId: string | undefined, contextId?: number) =>
    evaluate(tabId, sessionId, installSocketHold(holding.get(tabId) ?? false), contextId).catch(() => undefined)

  const contextsOf = (tabId: number) => {
    let map = contexts.get(tabId)
    if (!map) contexts.set(tabId, (map = new Map()))
    return map
  }

  return {
    /**
     * Watches a session's worlds: the binding first (every world of the session gets it, those to come too), then
     * Runtime, which reports each world, each one getting the wrapper as it is reported.
     */
    async cover(tabId: number, sessionId: string | undefined): Promise<void> {
      contextsOf(tabId).set(key(sessionId), contextsOf(tabId).get(key(sessionId)) ?? new Set())
      await send(tabId, sessionId, 'Runtime.addBinding', { name: SOCKET_BINDING })
      await send(tabId, sessionId, 'Runtime.enable')
    },

    /** A world of the page (a frame's document, a worker) came up: the wrapper goes in, in the tab's mode. */
    contextCreated(tabId: number, sessionId: string | undefined, params: ContextEvent): void {
      const aux = params.context.auxData
      // The extension's own content scripts run in isolated worlds: the page's WebSocket is not theirs.
      if (aux?.isDefault === false || aux?.type === 'isolated') return
      const sessions = contexts.get(tabId)
      if (!sessions) return
      const set = sessions.get(key(sessionId)) ?? new Set<number>()
      sessions.set(key(sessionId), set)
      set.add(params.context.id)
      void install(tabId, sessionId, params.context.id)
    },

    contextGone(tabId: number, sessionId: string | undefined, contextId?: number): void {
      const set = contexts.get(tabId)?.get(key(sessionId))
      if (contextId === undefined) set?.clear()
      else set?.delete(contextId)
    },

    sessionGone(tabId: number, sessionId: string): void {
      contexts.get(tabId)?.delete(sessionId)
    },

    /** Holds or lets go in every world it knows of on the tab; the tab's main world is set first and waited for. */
    async mode(tabId: number, hold: boolean): Promise<boolean> {
      holding.set(tabId, hold)
      const top = await evaluate(tabId, undefined, installSocketHold(hold)).catch(() => null)
      const rest: Promise<unknown>[] = []
      for (const [session, ids] of contexts.get(tabId) ?? []) for (const id of ids) rest.push(install(tabId, session || undefined, id))
      await Promise.all(rest)
      return top?.result?.value === true
    },

    /** Sends a frame the wrapper keeps on its socket (go: in its turn; now: at once), or drops it. */
    async decide(tabId: number, sessionId: string | undefined, contextId: number, frame: number, verdict: SocketVerdict): Promise<SocketOutcome> {
      const answer = await evaluate(tabId, sessionId, decideSocketFrame(frame, verdict), contextId)
      const value = answer?.result?.value
      return value === 'sent' || value === 'queued' || value === 'dropped' ? value : 'gone'
    },

    /** A frame about to be let go on purpose, as it will look on the wire. */
    expect(tabId: number, frame: { text?: string; binary?: string; bytes: number }): void {
      const list = expected.get(tabId) ?? []
      list.push(frame.text !== undefined ? textKey(frame.text, frame.bytes) : binaryKey(frame.bytes))
      // Bounded: frames let go on purpose that the browser never reported sent (a socket that closed) are forgotten.
      expected.set(tabId, list.slice(-200))
    },

    /** Whether a frame the browser reports sent was let go on purpose (each one counted once). */
    asked(tabId: number, event: FrameSentEvent): boolean {
      const list = expected.get(tabId) ?? []
      const at = list.indexOf(wireKey(event.response))
      if (at < 0) return false
      list.splice(at, 1)
      return true
    },

    socketOpened(tabId: number, requestId: string, url: string): void {
      const map = urls.get(tabId) ?? new Map<string, string>()
      urls.set(tabId, map)
      map.set(requestId, url)
    },

    urlOf: (tabId: number, requestId: string): string | undefined => urls.get(tabId)?.get(requestId),

    forget(tabId: number): void {
      contexts.delete(tabId)
      holding.delete(tabId)
      expected.delete(tabId)
      urls.delete(tabId)
    },
  }
}
export type SocketSends = ReturnType<typeof createSocketSends>

const textKey = (text: string, bytes: number) => `t:${bytes}:${text.slice(0, 200)}`
const binaryKey = (bytes: number) => `b:${bytes}`

/** Bytes of a base64 payload (CDP reports a binary frame's payload so). */
export const base64Bytes = (data: string) => Math.max(0, Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0))

/** How a frame the browser reports sent is matched to one let go on purpose: its text, or a binary frame's size. */
export function wireKey(frame: { opcode: number; payloadData: string }): string {
  return frame.opcode === 1 ? textKey(frame.payloadData, new TextEncoder().encode(frame.payloadData).length) : binaryKey(base64Bytes(frame.payloadData))
}

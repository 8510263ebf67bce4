import type { WxtBrowser as Browser } from 'wxt/browser'
import { storage } from 'wxt/utils/storage'

export type DebuggerApi = Pick<Browser['debugger'], 'attach' | 'detach' | 'sendCommand' | 'getTargets'>

/**
 * Why a command did not reach the tab: the person canceled Chrome's "started debugging" bar for it (`declined`),
 * another debugger holds it (`busy`), no answer in time (`timeout`), or the browser refused (`failed`).
 */
export class DebuggerError extends Error {
  constructor(
    readonly reason: 'declined' | 'busy' | 'timeout' | 'failed',
    message: string,
  ) {
    super(message)
    this.name = 'DebuggerError'
  }
}

/** The tabs whose debugging the person canceled; tab ids last as long as the browser session, and so does this. */
export interface DeclinedTabs {
  get(): Promise<number[]>
  set(tabIds: number[]): Promise<void>
}

const declinedItem = storage.defineItem<number[]>('session:tandem.debugger.declined', { fallback: [] })

export interface TabDebuggerDeps {
  debugger: DebuggerApi
  declined?: DeclinedTabs
  attachTimeoutMs?: number
  /** The deadline of a command that names none. */
  commandTimeoutMs?: number
}

const PROTOCOL_VERSION = '1.3'
const NOT_ATTACHED = /not attached/i
const ALREADY_ATTACHED = /already attached/i

const messageOf = (error: unknown) => String((error as Error)?.message ?? error)

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DebuggerError('timeout', `${what} got no answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

const refused = (error: unknown) => (error instanceof DebuggerError ? error : new DebuggerError('failed', messageOf(error)))

/**
 * The Chrome DevTools Protocol on a task's tab, through `chrome.debugger`. It keeps no session of its own: the
 * worker may be stopped at any moment while Chrome keeps the extension attached, so a command is sent first and
 * the tab attached only when Chrome says it is not. Every user (the screenshots; next, the task tab's requests)
 * sends through here and shares the one attachment; none of them detaches: the worker does, when the task lets
 * go of the tab (see createDebuggerHold).
 */
export function createTabDebugger(deps: TabDebuggerDeps) {
  const declined: DeclinedTabs = deps.declined ?? { get: () => declinedItem.getValue(), set: (tabIds) => declinedItem.setValue(tabIds) }
  const attachMs = deps.attachTimeoutMs ?? 5000
  const commandMs = deps.commandTimeoutMs ?? 5000
  const attaching = new Map<number, Promise<void>>()
  /** Counts, per tab, the attachments this worker made or lost: a user of the debugger can tell it is still the same. */
  const attachments = new Map<number, number>()
  const bump = (tabId: number) => attachments.set(tabId, (attachments.get(tabId) ?? 0) + 1)
  let declines: Promise<unknown> = Promise.resolve()

  /** Read-modify-write of the declined tabs, one at a time: Chrome's Cancel detaches every tab at once. */
  function changeDeclined(change: (tabIds: number[]) => number[]): Promise<void> {
    const run = declines.then(async () => {
      const before = await declined.get()
      const after = change(before)
      if (after.length !== before.length || after.some((id, i) => id !== before[i])) await declined.set(after)
    })
    declines = run.catch(() => undefined)
    return run
  }

  async function attach(tabId: number): Promise<void> {
    bump(tabId)
    if ((await declined.get()).includes(tabId)) {
      throw new DebuggerError('declined', 'Chrome’s “started debugging this browser” bar was canceled for this tab.')
    }
    try {
      await withDeadline(deps.debugger.attach({ tabId }, PROTOCOL_VERSION), attachMs, 'Attaching the debugger')
    } catch (error) {
      // Ours already (attached by a worker before this one), or someone else's: the command sent next tells.
      if (!ALREADY_ATTACHED.test(messageOf(error))) throw refused(error)
    }
  }

  /** One attach per tab at a time: callers arriving meanwhile wait for it instead of failing on "already attached". */
  function attachOnce(tabId: number): Promise<void> {
    let pending = attaching.get(tabId)
    if (!pending) {
      pending = attach(tabId).finally(() => attaching.delete(tabId))
      attaching.set(tabId, pending)
    }
    return pending
  }

  return {
    /** Sends one CDP command to the tab, attaching first if the extension is not attached; rejects with a DebuggerError. */
    async send<T = unknown>(tabId: number, method: string, params: Record<string, unknown> = {}, timeoutMs = commandMs): Promise<T> {
      const command = () => withDeadline(deps.debugger.sendCommand({ tabId }, method, params), timeoutMs, method) as Promise<T>
      try {
        return await command()
      } catch (error) {
        if (!NOT_ATTACHED.test(messageOf(error))) throw refused(error)
      }
      await attachOnce(tabId)
      try {
        return await command()
      } catch (error) {
        if (!NOT_ATTACHED.test(messageOf(error))) throw refused(error)
        // Attaching said "already attached", yet not by us.
        throw new DebuggerError('busy', 'Another debugger (DevTools or another extension) is attached to this tab.')
      }
    },

    /**
     * Sends one CDP command to a child target of the tab (a frame in another process, a worker) that the tab's
     * session auto-attached: it exists only while the tab is attached, so nothing is attached here.
     */
    async sendToSession<T = unknown>(tabId: number, sessionId: string, method: string, params: Record<string, unknown> = {}, timeoutMs = commandMs): Promise<T> {
      try {
        return (await withDeadline(deps.debugger.sendCommand({ tabId, sessionId } as { tabId: number }, method, params), timeoutMs, method)) as T
      } catch (error) {
        throw refused(error)
      }
    },

    /**
     * Which attachment of the tab this worker is on: it changes whenever the worker attaches to the tab, lets go of
     * it, or hears that Chrome let go of it. The same number twice means what was set through it in between still holds.
     */
    attachment: (tabId: number): number => attachments.get(tabId) ?? 0,

    /** Lets go of the tab if the extension is attached to it; true when it was. Never touches another debugger. */
    async detach(tabId: number): Promise<boolean> {
      bump(tabId)
      try {
        await withDeadline(deps.debugger.detach({ tabId }), commandMs, 'Detaching the debugger')
        return true
      } catch {
        // Not attached, the tab is gone, or no answer: nothing of ours is left to let go of.
        return false
      }
    },

    /** The tabs some debugger is attached to (ours or another's). */
    async attachedTabs(): Promise<number[]> {
      const targets = await deps.debugger.getTargets().catch(() => [])
      return targets.flatMap((t) => (t.attached && t.tabId !== undefined ? [t.tabId] : []))
    },

    /**
     * A `chrome.debugger.onDetach` listener. The person canceling Chrome's bar (`canceled_by_user`) said no: the
     * tab is not attached again until `allow` (its task is over); a closed tab needs nothing.
     */
    async detached(source: { tabId?: number }, reason: string): Promise<void> {
      const { tabId } = source
      if (tabId !== undefined) bump(tabId)
      if (reason !== 'canceled_by_user' || tabId === undefined) return
      await changeDeclined((tabIds) => (tabIds.includes(tabId) ? tabIds : [...tabIds, tabId]))
    },

    /** Forgets that debugging was canceled for these tabs (all of them without an argument). */
    allow(tabIds?: number[]): Promise<void> {
      return changeDeclined((declinedIds) => (tabIds ? declinedIds.filter((id) => !tabIds.includes(id)) : []))
    },
  }
}
export type TabDebugger = ReturnType<typeof createTabDebugger>

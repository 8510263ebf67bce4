import { storage } from 'wxt/utils/storage'
import type { HeldWrite } from '#protocol'

/** A write held in the browser: the CDP request id and the session that paused it, so a later worker can decide it. */
export interface Hold extends HeldWrite {
  tabId: number
  sessionId?: string
  taskId: string
  /** The step that was running when the page sent it. */
  stepId: string
  at: number
  /** A message the page sent over an open WebSocket, kept by the page's wrapper (socket-wrapper.ts), not by Fetch. */
  via?: 'socket'
  /** Where the wrapper keeps it: the world it was sent from, and its number there. */
  contextId?: number
  frame?: number
}

/** Where held writes are kept: session storage outlives a stopped worker, as the paused requests do. */
export interface HoldStore {
  get(): Promise<Hold[]>
  set(holds: Hold[]): Promise<void>
}

const holdsItem = storage.defineItem<Hold[]>('session:tandem.barrier.holds', { fallback: [] })

export const sessionHoldStore: HoldStore = { get: () => holdsItem.getValue(), set: (holds) => holdsItem.setValue(holds) }

/** Read-modify-write of the held list, one change at a time. */
export function serialChanges(store: HoldStore) {
  let writes: Promise<unknown> = Promise.resolve()
  return function change<T>(fn: (holds: Hold[]) => { holds: Hold[]; result: T }): Promise<T> {
    const run = writes.then(async () => {
      const { holds, result } = fn(await store.get())
      await store.set(holds)
      return result
    })
    writes = run.catch(() => undefined)
    return run
  }
}

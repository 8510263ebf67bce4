import { isTerminal, type TaskStatus } from '#protocol'
import type { TabDebugger } from '../executor/debugger'
import type { WriteBarrier } from '../executor/write-barrier'
import { readState, type ExecutorState } from '../executor/state'
import { taskOfTab } from './indicator-sync'
import { ownedTabs } from '../executor/task-tabs'
import { backFromRefusedPosts } from '../executor/refused-post'
import type { TabsApi } from '../executor/task-tab'

export interface DebuggerHoldDeps {
  debugger: Pick<TabDebugger, 'detach' | 'allow' | 'attachedTabs'>
  readState?: () => Promise<ExecutorState>
  /** Writes still held on a tab fail before the debugger lets go of it: detaching would send them. */
  barrier?: Pick<WriteBarrier, 'refuse'>
  /** A refused form post leaves its tab on an error page: the tab goes back to the form (backFromRefusedPosts). */
  tabs?: Pick<TabsApi, 'get' | 'goBack'>
}

/**
 * How long the debugger stays on a task's tab. It is attached by the first command a step sends (a screenshot)
 * and stays while the task works there, so steps pay no attach and Chrome's "started debugging" bar does not
 * flicker. It comes off when the tab is handed back to the person (the task paused: a takeover or Pause) and
 * when the task ends; a task the worker never heard end (canceled while the worker was stopped) loses it once
 * the server says this client has no active task.
 */
export function createDebuggerHold(deps: DebuggerHoldDeps) {
  const read = deps.readState ?? readState

  /** The tabs the task owns (none when a later task took its tab): the barrier may have attached to each. */
  async function tabsOf(taskId: string): Promise<number[]> {
    const state = await read()
    const task = state.tasks[taskId]
    if (!task || taskOfTab(state, task.tabId) !== taskId) return []
    return ownedTabs(task).map((t) => t.tabId)
  }

  const refuse = (which: Parameters<WriteBarrier['refuse']>[0]) =>
    deps.barrier
      ?.refuse(which)
      .then((refused) => (deps.tabs ? backFromRefusedPosts(deps.tabs, refused) : undefined))
      .catch((error: unknown) => console.warn('[tandem] held requests could not be refused', error))

  const self = {
    /** The person has the tab (the task is paused): let go of it; a debugging they canceled stays canceled. */
    async handBack(taskId: string): Promise<void> {
      await refuse((h) => h.taskId === taskId)
      for (const tabId of await tabsOf(taskId)) await deps.debugger.detach(tabId)
    },

    /** The task is over: let go of its tab, and a later task there may attach again. */
    async end(taskId: string): Promise<void> {
      await refuse((h) => h.taskId === taskId)
      const tabIds = await tabsOf(taskId)
      if (!tabIds.length) return
      for (const tabId of tabIds) await deps.debugger.detach(tabId)
      await deps.debugger.allow(tabIds)
    },

    /** No task is active: let go of every task tab still held (detaching another's debugger is never possible). */
    async sweep(): Promise<void> {
      await refuse(() => true)
      const state = await read()
      const taskTabs = new Set(Object.values(state.tasks).flatMap((t) => ownedTabs(t).map((o) => o.tabId)))
      for (const tabId of await deps.debugger.attachedTabs()) if (taskTabs.has(tabId)) await deps.debugger.detach(tabId)
      await deps.debugger.allow()
    },

    /** Follows a status the worker applies (null: the server says this client has no active task). */
    async follow(taskId: string | null, status: TaskStatus | null): Promise<void> {
      if (!taskId || !status) return self.sweep()
      if (isTerminal(status)) return self.end(taskId)
      if (status === 'PAUSED') return self.handBack(taskId)
      // The task asks the person something: what its last step held is not what they are asked about.
      if (status === 'WAITING_USER') await refuse((h) => h.taskId === taskId)
    },
  }
  return self
}
export type DebuggerHold = ReturnType<typeof createDebuggerHold>

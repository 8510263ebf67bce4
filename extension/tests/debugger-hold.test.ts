import { describe, expect, it, vi } from 'vitest'
import { EMPTY_STATE, type ExecutorState } from '../lib/executor/state'
import { createDebuggerHold } from '../lib/worker/debugger-hold'

function setup(tasks: ExecutorState['tasks'], attached: number[] = []) {
  const debuggee = {
    detach: vi.fn(async (_tabId: number) => true),
    allow: vi.fn(async (_tabIds?: number[]) => undefined),
    attachedTabs: vi.fn(async () => attached),
  }
  const hold = createDebuggerHold({ debugger: debuggee, readState: async () => ({ ...EMPTY_STATE, tasks }) })
  return { hold, debuggee }
}

const tab = (tabId: number, at = 1) => ({ tabId, closed: false, at })

describe('how long the debugger stays on a task tab', () => {
  it('stays while the task runs or waits for the person', async () => {
    const { hold, debuggee } = setup({ task1: tab(7) })
    for (const status of ['RUNNING', 'WAITING_CONFIRMATION', 'WAITING_USER', 'WAITING_PAGE'] as const) await hold.follow('task1', status)
    expect(debuggee.detach).not.toHaveBeenCalled()
  })

  it('comes off when the task ends, and the tab may be attached again by a later task', async () => {
    for (const status of ['SUCCEEDED', 'FAILED', 'CANCELED'] as const) {
      const { hold, debuggee } = setup({ task1: tab(7) })
      await hold.follow('task1', status)
      expect(debuggee.detach).toHaveBeenCalledWith(7)
      expect(debuggee.allow).toHaveBeenCalledWith([7])
    }
  })

  it('comes off when the tab is handed back to the person (paused), and a canceled bar stays canceled', async () => {
    const { hold, debuggee } = setup({ task1: tab(7) })
    await hold.follow('task1', 'PAUSED')
    expect(debuggee.detach).toHaveBeenCalledWith(7)
    expect(debuggee.allow).not.toHaveBeenCalled()
  })

  it('comes off every tab the task owns (the tabs its pages opened, where the barrier attached too)', async () => {
    const owned = { ...tab(8), tabs: [{ tabId: 7, tab: 1 }, { tabId: 8, tab: 2, opener: 7 }], nextTab: 3 }
    const { hold, debuggee } = setup({ task1: owned })
    await hold.follow('task1', 'SUCCEEDED')
    expect(debuggee.detach.mock.calls).toEqual([[7], [8]])
    expect(debuggee.allow).toHaveBeenCalledWith([7, 8])
    const swept = setup({ task1: owned }, [7, 8, 9])
    await swept.hold.follow(null, null)
    expect(swept.debuggee.detach.mock.calls).toEqual([[7], [8]])
  })

  it('leaves a tab alone that a newer task took over', async () => {
    const { hold, debuggee } = setup({ old: tab(7, 1), newer: tab(7, 2) })
    await hold.follow('old', 'SUCCEEDED')
    await hold.follow('unknown', 'CANCELED')
    expect(debuggee.detach).not.toHaveBeenCalled()
  })

  it('lets go of every task tab still held once this client has no active task (a task that ended while the worker was stopped)', async () => {
    const { hold, debuggee } = setup({ task1: tab(7), task2: tab(8) }, [7, 9])
    await hold.follow(null, null)
    // Tab 9 is not a task tab: whatever debugs it is none of Tandem's business.
    expect(debuggee.detach.mock.calls).toEqual([[7]])
    expect(debuggee.allow).toHaveBeenCalledWith()
  })

  it('fails what the barrier still holds before letting go of the tab (detaching would send it)', async () => {
    for (const status of ['PAUSED', 'CANCELED', null] as const) {
      const order: string[] = []
      const refused: boolean[] = []
      const debuggee = {
        detach: vi.fn(async (_tabId: number) => (order.push('detach'), true)),
        allow: vi.fn(async (_tabIds?: number[]) => undefined),
        attachedTabs: vi.fn(async () => [7]),
      }
      const held = { id: 'r1', taskId: 'task1', tabId: 7 }
      const barrier = {
        refuse: vi.fn(async (which: (h: never) => boolean) => {
          order.push('refuse')
          refused.push(which(held as never))
          return []
        }),
      }
      const hold = createDebuggerHold({ debugger: debuggee, barrier, readState: async () => ({ ...EMPTY_STATE, tasks: { task1: tab(7) } }) })
      await hold.follow(status ? 'task1' : null, status)
      expect(order).toEqual(['refuse', 'detach'])
      expect(refused).toEqual([true])
    }
  })

  it('fails what the last step held when the task asks the person something instead', async () => {
    const barrier = { refuse: vi.fn(async () => []) }
    const debuggee = { detach: vi.fn(async () => true), allow: vi.fn(async () => undefined), attachedTabs: vi.fn(async () => []) }
    const hold = createDebuggerHold({ debugger: debuggee, barrier, readState: async () => ({ ...EMPTY_STATE, tasks: { task1: tab(7) } }) })
    await hold.follow('task1', 'WAITING_CONFIRMATION')
    expect(barrier.refuse).not.toHaveBeenCalled()
    await hold.follow('task1', 'WAITING_USER')
    expect(barrier.refuse).toHaveBeenCalledTimes(1)
    expect(debuggee.detach).not.toHaveBeenCalled()
  })
})

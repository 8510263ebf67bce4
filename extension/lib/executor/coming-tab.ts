import { COMING_MS, type ExecutorState, readState, updateState } from './state'

/** The panel is about to start a task in `tabId` (see ExecutorState.coming). */
export async function expectTaskTab(tabId: number, now = Date.now): Promise<void> {
  await updateState((state) => ({ ...state, coming: { tabId, at: now() } }))
}

/**
 * The state a task's step may run with. A task the worker has no tab for, while the panel is starting one in the
 * current tab, waits until the panel has named its task: otherwise a start whose first step is a navigate, handed
 * out before the panel's use-tab arrives, would open a tab of its own.
 */
export async function stateForTask(taskId: string, now = Date.now, sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))): Promise<ExecutorState> {
  for (;;) {
    const state = await readState()
    const coming = state.coming
    if (state.tasks[taskId] || !coming || now() - coming.at >= COMING_MS) return state
    await sleep(50)
  }
}

import type { Browser } from 'wxt/browser'
import type { ExecutorState } from '../executor/state'
import type { TrustedInput } from '../executor/trusted-input'
import { InputRequest, type InputReply } from '../messages'

export interface InputRequestDeps {
  input: Pick<TrustedInput, 'dispatch'>
  readState: () => Promise<ExecutorState>
}

/**
 * Answers Tandem's content script when the step it runs asks for trusted input. Only the top frame of the tab the
 * running step belongs to may ask, and only for that step: the debugger's input is never a way for a page (or a
 * step that ended) to act. What is typed is passed on and never logged.
 */
export function onInputRequest(deps: InputRequestDeps, extensionId: string, extensionOrigin: string) {
  return (message: unknown, sender: Browser.runtime.MessageSender, sendResponse: (reply: InputReply) => void): boolean => {
    const request = InputRequest.safeParse(message)
    const tabId = sender.tab?.id
    if (!request.success || sender.id !== extensionId || tabId === undefined || sender.frameId !== 0) return false
    if (sender.url?.startsWith(extensionOrigin)) return false
    void answer(request.data, tabId).then(sendResponse)
    return true
  }

  async function answer(request: InputRequest, tabId: number): Promise<InputReply> {
    const state = await deps.readState()
    const running = state.inflight
    // The step's tab is its task's (remembered before anything runs in it): the lock may predate an adopted tab.
    const taskTab = running ? state.tasks[running.taskId] : undefined
    const ours = (running?.tabId ?? taskTab?.tabId) === tabId && !taskTab?.closed
    if (!running || running.actionId !== request.actionId || running.phase !== 'started' || !ours) return { sent: false }
    try {
      return { sent: await deps.input.dispatch(tabId, request.gesture) }
    } catch (error) {
      return { error: String((error as Error)?.message ?? error) }
    }
  }
}

import type { Browser } from 'wxt/browser'
import { WorkerRequest, workerReplies } from '../messages'
import type { Executor } from '../executor/executor'

/** Answers the panel (an extension page, also when opened as a tab); content scripts and web pages are ignored. */
export function onWorkerMessage(executor: Pick<Executor, 'wake'>, extensionOrigin: string) {
  return (message: unknown, sender: Browser.runtime.MessageSender, sendResponse: (reply: unknown) => void): boolean => {
    const request = WorkerRequest.safeParse(message)
    if (!request.success || !sender.url?.startsWith(extensionOrigin)) return false
    switch (request.data.kind) {
      case 'wake':
        void executor.wake(request.data.force)
        sendResponse(workerReplies.wake.parse({ ok: true }))
        return false
    }
  }
}

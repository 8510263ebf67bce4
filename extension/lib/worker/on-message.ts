import type { Browser } from 'wxt/browser'
import { WorkerRequest, workerReplies } from '../messages'
import type { Executor } from '../executor/executor'
import type { TaskStatus } from '#protocol'

export interface WorkerMessageDeps {
  executor: Pick<Executor, 'wake'>
  /** See expectTaskTab (lib/executor/coming-tab.ts). */
  expectTab: (tabId: number) => Promise<void>
  /** See adoptTaskTab (lib/worker/adopt-tab.ts). */
  adoptTab: (taskId: string, tabId: number) => Promise<boolean>
  /** See createTaskChanges (lib/worker/task-changes.ts). */
  taskChanged: (taskId: string) => Promise<{ status: TaskStatus | null; stopped: boolean }>
}

/** Answers the panel (an extension page, also when opened as a tab); content scripts and web pages are ignored. */
export function onWorkerMessage(deps: WorkerMessageDeps, extensionOrigin: string) {
  return (message: unknown, sender: Browser.runtime.MessageSender, sendResponse: (reply: unknown) => void): boolean => {
    const request = WorkerRequest.safeParse(message)
    if (!request.success || !sender.url?.startsWith(extensionOrigin)) return false
    switch (request.data.kind) {
      case 'wake':
        void deps.executor.wake(request.data.force)
        sendResponse(workerReplies.wake.parse({ ok: true }))
        return false
      case 'tab-coming':
        void deps.expectTab(request.data.tabId).then(
          () => sendResponse(workerReplies['tab-coming'].parse({ ok: true })),
          () => sendResponse(workerReplies['tab-coming'].parse({ ok: true })),
        )
        return true
      case 'use-tab': {
        const { taskId, tabId } = request.data
        void deps.adoptTab(taskId, tabId).then(
          (adopted) => sendResponse(workerReplies['use-tab'].parse({ adopted })),
          () => sendResponse(workerReplies['use-tab'].parse({ adopted: false })),
        )
        // The answer comes later: keep the channel open.
        return true
      }
      case 'task-changed':
        void deps.taskChanged(request.data.taskId).then(
          (change) => sendResponse(workerReplies['task-changed'].parse(change)),
          () => sendResponse(workerReplies['task-changed'].parse({ status: null, stopped: false })),
        )
        return true
    }
  }
}

import type { Browser } from 'wxt/browser'
import { ContentEvent, type ContentEventReply } from '../messages'
import type { Takeover } from './takeover'

/**
 * Answers Tandem's own content script in a tab's top frame; extension pages, other extensions and frames are
 * ignored (the panel speaks through onWorkerMessage).
 */
export function onContentEvent(takeover: Pick<Takeover, 'handle'>, extensionId: string, extensionOrigin: string) {
  return (message: unknown, sender: Browser.runtime.MessageSender, sendResponse: (reply: ContentEventReply) => void): boolean => {
    const event = ContentEvent.safeParse(message)
    const tabId = sender.tab?.id
    if (!event.success || sender.id !== extensionId || tabId === undefined || sender.frameId !== 0) return false
    if (sender.url?.startsWith(extensionOrigin)) return false
    takeover.handle(event.data, tabId).then(sendResponse, () => sendResponse({ state: 'idle' }))
    return true
  }
}

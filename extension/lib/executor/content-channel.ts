import type { WxtBrowser as Browser } from 'wxt/browser'
import { ContentFailure, contentReplies, type ContentKind, type ContentReply, type ContentRequest } from '../messages'
import type { TabsApi } from './task-tab'

/** Why the content script gave no answer: it is gone (page left, never injected), too slow, or it failed. */
export class ContentError extends Error {
  constructor(
    readonly reason: 'gone' | 'timeout' | 'failed',
    message: string,
  ) {
    super(message)
    this.name = 'ContentError'
  }
}

export interface ContentChannelDeps {
  tabs: Pick<TabsApi, 'sendMessage'>
  scripting: Pick<Browser['scripting'], 'executeScript'>
  /** The built content script, injected only into the task tab and only when needed. */
  file: string
  /** The built script that answers the content script's listener census from the page's world, injected with it. */
  pageWorldFile?: string
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ContentError('timeout', `${what} took longer than ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** Whether the document in the tab (or its frame) runs the content script already: it answers a ping. */
export function runsTandem(channel: Pick<ContentChannel, 'ask'>, tabId: number, frameId = 0, timeoutMs = 1000): Promise<boolean> {
  return channel.ask(tabId, { kind: 'ping' }, timeoutMs, frameId).then(
    () => true,
    () => false,
  )
}

export function createContentChannel(deps: ContentChannelDeps) {
  /** Asks the content script of the page (frame 0), or of one of its frames that Tandem was let into. */
  async function ask<K extends ContentKind>(tabId: number, request: Extract<ContentRequest, { kind: K }>, timeoutMs: number, frameId = 0): Promise<ContentReply<K>> {
    const sent = deps.tabs.sendMessage(tabId, request, { frameId }).catch((error: unknown) => {
      throw new ContentError('gone', `The page did not answer (${(error as Error)?.message ?? error})`)
    })
    const reply: unknown = await withTimeout(sent, timeoutMs, `The page's ${request.kind}`)
    const failure = ContentFailure.safeParse(reply)
    if (failure.success) throw new ContentError('failed', failure.data.error)
    const parsed = contentReplies[request.kind].safeParse(reply)
    if (!parsed.success) throw new ContentError(reply === undefined ? 'gone' : 'failed', `The page's ${request.kind} answer was malformed`)
    return parsed.data as ContentReply<K>
  }

  return {
    ask,
    /** Injects the content script unless this document already runs it (a fresh page never does). */
    async ensure(tabId: number, frameId = 0, timeoutMs = 3000): Promise<void> {
      if (await runsTandem({ ask }, tabId, frameId, Math.min(1000, timeoutMs))) return
      try {
        // The page's world first: the content script's first reading already finds its answers.
        if (deps.pageWorldFile) await deps.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: [deps.pageWorldFile], world: 'MAIN' } as never)
        await deps.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: [deps.file] } as never)
      } catch (error) {
        throw new ContentError('gone', `Could not start Tandem in the page (${(error as Error)?.message ?? error})`)
      }
      await ask(tabId, { kind: 'ping' }, timeoutMs, frameId)
    },
  }
}
export type ContentChannel = ReturnType<typeof createContentChannel>

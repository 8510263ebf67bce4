import { classifyRequest, type HeldWrite } from '#protocol'
import { waitForTabLoad } from './tab-load'
import type { TabsApi } from './task-tab'
import type { WriteBarrier } from './write-barrier'

export interface PopupDeps {
  tabs: Pick<TabsApi, 'get' | 'update'>
  barrier: Pick<WriteBarrier, 'engage' | 'waitForHold' | 'stepEnded'>
}

export interface Opened {
  tabId: number
  url: string
  method: string
}

/**
 * The windows a step's page tried to open, whose first request the write block stopped: each is opened again, now
 * under the barrier for the same step, so what it sends as it loads (a connect or sign-in window that posts at once)
 * is held like the page's own writes. A window that cannot be taken under the barrier, or whose first request was
 * itself a post, cannot be replayed: it is a blocked write, asked about before the step runs again.
 */
export async function reopenUnderBarrier(
  deps: PopupDeps,
  opened: readonly Opened[],
  step: { taskId: string; stepId: string; pageUrl: string | undefined },
  settleMs: number,
): Promise<HeldWrite[]> {
  const blocked: HeldWrite[] = []
  for (const popup of opened) {
    const replayable = popup.method.toUpperCase() === 'GET' && (await deps.barrier.engage(popup.tabId, { ...step, adopted: true }))
    if (!replayable) {
      const judged = classifyRequest({ method: popup.method, url: popup.url, resourceType: 'Document', pageUrl: step.pageUrl })
      blocked.push({ id: `blocked-window-${popup.tabId}`, reason: judged.reason, request: { ...judged.request, kind: 'navigation' } })
      continue
    }
    await deps.tabs.update(popup.tabId, { url: popup.url }).catch(() => undefined)
    const loaded = await waitForTabLoad(deps.tabs as TabsApi, popup.tabId, { timeoutMs: 5000, from: { url: undefined } })
    if (loaded !== null) await deps.barrier.waitForHold(popup.tabId, step.stepId, Date.now() + settleMs)
    await deps.barrier.stepEnded(popup.tabId)
  }
  return blocked
}

import type { ObservationError } from '#protocol'
import { HELD } from '../barrier-outcome'
import { waitForTabLoad } from '../tab-load'
import { tabClosed } from '../task-tab'
import type { LiveTab, StepContext } from './context'
import { readPage, readyPage } from './read-page'

/** After a navigation: the page as it settled, if Tandem may read it. */
export async function settle(step: StepContext, tabId: number, from: string | undefined): Promise<LiveTab | ObservationError | typeof HELD> {
  const { deps, obs } = step
  const loaded = await waitForTabLoad(deps.tabs, tabId, { timeoutMs: step.loadTimeoutMs, from: { url: from }, ...(step.heldYet ? { stop: step.heldYet } : {}) })
  if (loaded === 'stopped') return HELD
  if (loaded === null) return tabClosed()
  const current = (loaded === 'timeout' ? await deps.tabs.get(tabId).catch(() => null) : loaded) as LiveTab | null
  if (!current) return tabClosed()
  obs.tab(current)
  obs.mark('loadedMs')
  if (loaded === 'timeout') return { code: 'NAVIGATION_IN_PROGRESS', message: 'The page is still loading.' }
  const unready = await readyPage(step, tabId, current.url)
  if (unready) return unready
  obs.mark('readyMs')
  return current
}

/** Where a navigation ended up: the page and its evidence, or why it could not be read (the move itself happened). */
export async function afterMove(step: StepContext, tabId: number, from: string | undefined, label: 'after' | 'observation') {
  return described(step, tabId, await settle(step, tabId, from), label)
}

export async function described(step: StepContext, tabId: number, settled: LiveTab | ObservationError | typeof HELD, label: 'after' | 'observation') {
  const { obs } = step
  if (settled === HELD) return obs.done()
  if ('code' in settled) {
    obs.error(settled)
    return obs.done()
  }
  await readPage(step, tabId)
  obs.shot(await step.shoot(settled, label))
  return obs.done()
}

/**
 * A click that submits a form answers before the browser leaves the page: when the tab has started to
 * move, wait for where it lands and describe that page instead (the "after" evidence belongs there).
 */
export async function afterAnswer(step: StepContext, before: LiveTab, answeredUrl: string | undefined): Promise<LiveTab | null> {
  const { deps, obs } = step
  const now = await deps.tabs.get(before.id).catch(() => null)
  if (!now) {
    obs.error(tabClosed())
    return null
  }
  const moved =
    now.status === 'loading' || !!now.pendingUrl || now.url !== before.url || (!!answeredUrl && answeredUrl !== before.url) || !!deps.guard?.navigating()
  if (!moved) return before
  obs.mark('navigated', 1)
  return land(step, before.id, before.url)
}

/** Waits for the tab to leave `from` and load, and reads the page it landed on; null (and the error noted) if it cannot. */
export async function land(step: StepContext, tabId: number, from: string | undefined): Promise<LiveTab | null> {
  const settled = await settle(step, tabId, from)
  // The page's navigation is a write the barrier holds: the step reports that, not a page that never loads.
  if (settled === HELD) return null
  if ('code' in settled) {
    step.obs.error(settled)
    return null
  }
  await readPage(step, tabId)
  return settled
}

/**
 * The guard stopped the page from leaving for a site nobody granted, which leaves the tab on the browser's error
 * page at that address: load the page the step started on again, so the task (or the same step, once the person
 * allows the site) goes on from there and not from an error page.
 */
export async function backTo(step: StepContext, before: LiveTab): Promise<LiveTab | null> {
  const { deps, obs } = step
  const tab = await deps.tabs.get(before.id).catch(() => null)
  if (!tab) {
    obs.error(tabClosed())
    return null
  }
  if (tab.url === before.url && tab.status === 'complete' && !tab.pendingUrl) return before
  obs.mark('restored', 1)
  await deps.tabs.update(before.id, { url: before.url })
  return land(step, before.id, tab.url)
}

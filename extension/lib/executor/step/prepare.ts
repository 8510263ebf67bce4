import type { Action, ObservationError } from '#protocol'
import { runsInPage } from '#protocol'
import { backFromRefusedPosts } from '../refused-post'
import { checkSiteAccess } from '../site-access'
import type { LateEffects, NextStep } from '../step-tail'
import { waitForTabLoad } from '../tab-load'
import { activeTab, findTaskTab, tabClosed, type TaskTabChoice } from '../task-tab'
import type { LiveTab, StepContext } from './context'
import { changeTabs } from './follow-tabs'

// What comes before a step does anything: whether it may run, its tab, what the last step left, and the page loaded.

export function unapproved(action: Action): ObservationError | null {
  // An in-page step's words are checked again in the page, against how its writes are watched (RiskGate); a step
  // the worker runs (a navigation, going back) is never under the barrier, so its risk alone asks.
  if ((action.requiresConfirmation || (action.risk === 'high' && !runsInPage(action.type))) && !action.confirmation) {
    return { code: 'CONFIRMATION_REQUIRED', message: 'A high-risk action must carry the person’s approval; it was not run.' }
  }
  return null
}

/** The task's tab, and what the tail of its last step caught. */
export async function findTab(step: StepContext): Promise<{ choice: TaskTabChoice; late: LateEffects | null }> {
  const { deps, action } = step
  const choice = await findTaskTab(deps.tabs, action, deps.state)
  // Whatever the last step's handlers did a moment after it was reported is heard before anything else runs (see
  // StepTail.end for what becomes of a tail that caught nothing).
  const next: NextStep = action.confirmation || action.type === 'release' ? 'other' : runsInPage(action.type) ? (deps.barrier ? 'takes-over' : 'other') : 'looks'
  const { late, handed } = (await deps.tail?.end(action.taskId, next)) ?? { late: null, handed: null }
  step.moves.handed = handed
  return { choice, late }
}

/** The task's writes held for other steps fail; a tab a refused form post left on an error page goes back to the form. */
export function refuseOthersHeld(step: StepContext): Promise<void> | undefined {
  const { deps, action } = step
  const handed = step.moves.handed
  return deps.barrier
    ?.refuse((h) => h.taskId === action.taskId && h.stepId !== handed?.actionId)
    .then((refused) => backFromRefusedPosts(deps.tabs, refused))
}

/**
 * The tab the step runs in, loaded: the task's (moved first for switch_tab and close_tab), or for a task with no tab
 * yet the one in front, if Tandem may act there.
 */
export async function loadTab(step: StepContext, known: LiveTab | null, refusing: Promise<void> | undefined): Promise<LiveTab | ObservationError> {
  const { deps, action, obs, loadTimeoutMs } = step
  const loadOf = (tabId: number) => waitForTabLoad(deps.tabs, tabId, { timeoutMs: action.type === 'observe' ? loadTimeoutMs : loadTimeoutMs / 2 })
  let tab: LiveTab
  let loading: ReturnType<typeof loadOf> | undefined
  if (known) {
    tab = known
    // Apart from each other (other steps' held writes, this tab's rules, the page's load): side by side.
    if (action.type !== 'switch_tab' && action.type !== 'close_tab') loading = loadOf(tab.id)
    await Promise.all([refusing, deps.guard?.engage(tab.id, tab.url)])
  } else {
    await refusing
    const adopted = await activeTab(deps.tabs)
    if (!adopted) return { code: 'INVALID_TASK_TAB', message: 'There is no open tab to run this task in.' }
    const refusal = await checkSiteAccess(deps.permissions, adopted.url, deps.serverUrl)
    if (refusal) return refusal
    await deps.rememberTab(action.taskId, adopted.id)
    await deps.guard?.engage(adopted.id, adopted.url)
    tab = adopted
  }

  if (action.type === 'switch_tab' || action.type === 'close_tab') {
    const moved = await changeTabs(step, tab)
    if ('code' in moved) return moved
    tab = moved
  }

  const loaded = await (loading ?? loadOf(tab.id))
  if (loaded === null) return tabClosed()
  if (loaded === 'timeout') {
    obs.tab(await deps.tabs.get(tab.id).catch(() => null))
    return action.type === 'observe'
      ? { code: 'PAGE_PREP_FAILED', message: `The page did not finish loading within ${loadTimeoutMs} ms.` }
      : { code: 'NAVIGATION_IN_PROGRESS', message: 'The page is still loading; nothing was done.' }
  }
  tab = loaded as LiveTab
  obs.tab(tab)
  obs.mark('loadedMs')
  return tab
}

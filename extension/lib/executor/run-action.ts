import type { Action, BarrierMode, ObservationInput } from '#protocol'
import { runsInPage } from '#protocol'
import { withRefusals } from './navigation-guard'
import { checkSiteAccess } from './site-access'
import { tabsBeside, unreached } from './beside-page'
import { waitForTabLoad } from './tab-load'
import { activeTab, findTaskTab, tabClosed } from './task-tab'
import { backFromRefusedPosts } from './refused-post'
import type { NextStep } from './step-tail'
import { act, grantedSites } from './step/act'
import { createStepContext, type LiveTab, type TabMoves } from './step/context'
import type { RunDeps } from './step/deps'
import { back } from './step/back'
import { changeTabs, followOpened } from './step/follow-tabs'
import { lateStep } from './step/late-step'
import { navigate } from './step/navigate'
import { release } from './step/release'
import { observe, readyPage } from './step/read-page'

export { actionBudgetMs } from './step/act'
export type { RunDeps } from './step/deps'

/** Runs one action in its task's tab and describes the outcome; never throws for page-level failures. */
export async function runAction(deps: RunDeps, action: Action): Promise<ObservationInput> {
  const moves: TabMoves = { opened: null, handed: null }
  const observation = await runInTab(deps, action, moves)
  // What the next step can count on: an in-page step says how it was watched; any other, what the setting promises.
  const barrier: BarrierMode = moves.barrier ?? (deps.barrier ? 'held' : 'off')
  // The last step's tail was handed to this one, which did not take the barrier over: it comes off.
  if (moves.handed) await deps.barrier?.stepEnded(moves.handed.tabId)
  const refused = deps.guard ? withRefusals(observation, deps.guard.refusals()) : observation
  const task = await deps.taskTabs?.read(action.taskId)
  const [tabs, frames] = await Promise.all([tabsBeside(deps, action, moves.opened, task), unreached(deps, action, refused, task)])
  return { ...refused, barrier, ...(tabs ? { tabs } : {}), ...(frames.length ? { frames } : {}) }
}

async function runInTab(deps: RunDeps, action: Action, moves: TabMoves): Promise<ObservationInput> {
  const step = createStepContext(deps, action, moves)
  const { obs, loadTimeoutMs } = step

  // An in-page step's words are checked again in the page, against how its writes are watched (RiskGate); a step
  // the worker runs (a navigation, going back) is never under the barrier, so its risk alone asks.
  if ((action.requiresConfirmation || (action.risk === 'high' && !runsInPage(action.type))) && !action.confirmation) {
    return obs.failed({ code: 'CONFIRMATION_REQUIRED', message: 'A high-risk action must carry the person’s approval; it was not run.' })
  }
  const choice = await findTaskTab(deps.tabs, action, deps.state)
  // Whatever the last step's handlers did a moment after it was reported is heard before anything else runs (see
  // StepTail.end for what becomes of a tail that caught nothing).
  const next: NextStep = action.confirmation || action.type === 'release' ? 'other' : runsInPage(action.type) ? (deps.barrier ? 'takes-over' : 'other') : 'looks'
  const { late, handed } = (await deps.tail?.end(action.taskId, next)) ?? { late: null, handed: null }
  moves.handed = handed
  if (choice.kind === 'error') return obs.failed(choice.error)
  if (late && action.type !== 'release' && choice.kind === 'tab') return lateStep(step, choice.tab, late)
  // A held write belongs to the step it came from: a task that moves on to anything else lets it fail.
  if (action.type === 'release') return release(step, choice.kind === 'tab' ? choice.tab : null)
  const refusing = deps.barrier
    ?.refuse((h) => h.taskId === action.taskId && h.stepId !== handed?.actionId)
    .then((refused) => backFromRefusedPosts(deps.tabs, refused))

  if (action.type === 'navigate') {
    await refusing
    return navigate(step, choice.kind === 'tab' ? choice.tab : null)
  }

  const loadOf = (tabId: number) => waitForTabLoad(deps.tabs, tabId, { timeoutMs: action.type === 'observe' ? loadTimeoutMs : loadTimeoutMs / 2 })
  let tab: LiveTab
  let loading: ReturnType<typeof loadOf> | undefined
  if (choice.kind === 'tab') {
    tab = choice.tab
    // Apart from each other (other steps' held writes, this tab's rules, the page's load): side by side.
    if (action.type !== 'switch_tab' && action.type !== 'close_tab') loading = loadOf(tab.id)
    await Promise.all([refusing, deps.guard?.engage(tab.id, tab.url)])
  } else {
    await refusing
    const adopted = await activeTab(deps.tabs)
    if (!adopted) return obs.failed({ code: 'INVALID_TASK_TAB', message: 'There is no open tab to run this task in.' })
    const refusal = await checkSiteAccess(deps.permissions, adopted.url, deps.serverUrl)
    if (refusal) return obs.failed(refusal)
    await deps.rememberTab(action.taskId, adopted.id)
    await deps.guard?.engage(adopted.id, adopted.url)
    tab = adopted
  }

  if (action.type === 'switch_tab' || action.type === 'close_tab') {
    const moved = await changeTabs(step, tab)
    if ('code' in moved) return obs.failed(moved)
    tab = moved
  }

  const loaded = await (loading ?? loadOf(tab.id))
  if (loaded === null) return obs.failed(tabClosed())
  if (loaded === 'timeout') {
    obs.tab(await deps.tabs.get(tab.id).catch(() => null))
    return obs.failed(
      action.type === 'observe'
        ? { code: 'PAGE_PREP_FAILED', message: `The page did not finish loading within ${loadTimeoutMs} ms.` }
        : { code: 'NAVIGATION_IN_PROGRESS', message: 'The page is still loading; nothing was done.' },
    )
  }
  tab = loaded as LiveTab
  obs.tab(tab)
  obs.mark('loadedMs')
  // What the page may reach, asked for while the page is made ready.
  const granted = runsInPage(action.type) ? grantedSites(deps.permissions) : null
  const unready = await readyPage(step, tab.id, tab.url)
  if (unready) return obs.failed(unready)

  if (runsInPage(action.type)) return followOpened(step, tab, (current) => act(step, current, granted!))
  switch (action.type) {
    case 'observe':
    case 'switch_tab':
    case 'close_tab':
      return observe(step, tab, 'observation')
    case 'screenshot':
      return observe(step, tab, 'screenshot')
    case 'back':
      return back(step, tab)
    default: {
      // A new worker action fails to compile here until it has its case.
      const unhandled: never = action.type
      return obs.failed({ code: 'ACTION_FAILED', message: `This extension cannot run "${String(unhandled)}".` })
    }
  }
}

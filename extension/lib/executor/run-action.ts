import type { Action, BarrierMode, ObservationInput } from '#protocol'
import { runsInPage } from '#protocol'
import { withRefusals } from './navigation-guard'
import { tabsBeside, unreached } from './beside-page'
import { act, grantedSites } from './step/act'
import { createStepContext, type TabMoves } from './step/context'
import type { RunDeps } from './step/deps'
import { back } from './step/back'
import { followOpened } from './step/follow-tabs'
import { lateStep } from './step/late-step'
import { navigate } from './step/navigate'
import { findTab, loadTab, refuseOthersHeld, unapproved } from './step/prepare'
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
  const { obs } = step
  const refusal = unapproved(action)
  if (refusal) return obs.failed(refusal)
  const { choice, late } = await findTab(step)
  if (choice.kind === 'error') return obs.failed(choice.error)
  const known = choice.kind === 'tab' ? choice.tab : null
  if (late && action.type !== 'release' && known) return lateStep(step, known, late)
  // A held write belongs to the step it came from: a task that moves on to anything else lets it fail.
  if (action.type === 'release') return release(step, known)
  const refusing = refuseOthersHeld(step)

  if (action.type === 'navigate') {
    await refusing
    return navigate(step, known)
  }

  const tab = await loadTab(step, known, refusing)
  if ('code' in tab) return obs.failed(tab)
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

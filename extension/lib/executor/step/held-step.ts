import type { PageState } from '../../messages'
import { heldWrite } from '../barrier-outcome'
import type { LiveTab, StepContext } from './context'
import type { RunDeps } from './deps'

/**
 * Whether the step set off a write the barrier holds. A navigation the step started is waited for until the
 * barrier has judged its request (a form post is held, a link followed), so a held post is not mistaken for a
 * page that is slow to load.
 */
export async function heldNow(step: StepContext, current: LiveTab, barrier: NonNullable<RunDeps['barrier']>): Promise<boolean> {
  const { deps, action } = step
  if ((await barrier.held(action.actionId)).length) return true
  const tab = await deps.tabs.get(current.id).catch(() => null)
  const moving = !!deps.guard?.navigating() || tab?.status === 'loading' || !!tab?.pendingUrl
  if (!moving || barrier.documents(current.id) > 0) return false
  return barrier.waitForHold(current.id, action.actionId, step.now() + 2000, () => barrier.documents(current.id) > 0)
}

/** What the page stored of the step as it acted, given a moment to store it (its hold may come first). */
async function storedResult(step: StepContext) {
  const { deps, action } = step
  for (let tries = 0; tries < 5; tries++) {
    const stored = await deps.readResult(action.actionId).catch(() => null)
    if (stored) return stored
    await new Promise((r) => setTimeout(r, 60))
  }
  return null
}

/** The step ends with writes held: the page as it is now (the request still waiting) is the evidence. */
export async function heldStep(step: StepContext, current: LiveTab, page: Partial<PageState> | undefined) {
  const { deps, action, obs } = step
  // A page whose form post is held never answers; what it stored as it acted still names the element.
  const stored = page ? null : await storedResult(step)
  if (stored?.targetName) obs.targetName(stored.targetName)
  if (stored?.input) obs.input(stored.input)
  const holds = await deps.barrier!.held(action.actionId)
  obs.writes({ held: holds.map(heldWrite) })
  obs.page(page)
  obs.tab(await deps.tabs.get(current.id).catch(() => null))
  obs.shot(await step.shoot(current, 'after'))
  obs.mark('heldMs')
  return obs.done()
}

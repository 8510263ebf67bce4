import { heldWrite, notHeld } from '../barrier-outcome'
import type { LiveTab, StepContext } from './context'
import { readPage } from './read-page'
import { land } from './settle'

/** The person approved what the barrier held: the very requests go on, and the page they lead to is read. */
export async function release(step: StepContext, current: LiveTab | null) {
  const { deps, action, obs } = step
  const ids = Array.isArray(action.params.holds) ? action.params.holds.map(String) : []
  if (!current || !deps.barrier) return obs.failed(notHeld())
  await deps.touching()
  const { released, gone } = await deps.barrier.release(ids)
  obs.writes({ released: released.map(heldWrite), gone: gone.map(heldWrite) })
  obs.mark('releasedMs')
  if (!released.length) {
    obs.tab(await deps.tabs.get(current.id).catch(() => null))
    return obs.failed(notHeld())
  }
  const navigates = released.some((h) => h.request.kind === 'form' || h.request.kind === 'navigation')
  const landed = navigates ? await land(step, current.id, current.url) : current
  if (!navigates) {
    await new Promise((r) => setTimeout(r, deps.navigationGraceMs ?? 500))
    await readPage(step, current.id)
  }
  if (landed) obs.shot(await step.shoot(landed, 'after'))
  return obs.done()
}

import { heldWrite } from '../barrier-outcome'
import type { LateEffects } from '../step-tail'
import type { LiveTab, StepContext } from './context'

/**
 * The last step's handlers acted after it was reported: the writes they sent are held (the person decides, and
 * this step runs after), or the site they tried to open was stopped (the person is asked about it). This step did
 * not run.
 */
export async function lateStep(step: StepContext, current: LiveTab, late: LateEffects) {
  const { deps, obs } = step
  obs.tab(await deps.tabs.get(current.id).catch(() => null))
  if (late.holds.length) {
    obs.writes({ held: late.holds.map(heldWrite) })
    obs.heldAfter(late.after)
    obs.shot(await step.shoot(current, 'after'))
    return obs.failed({
      code: 'CONFIRMATION_REQUIRED',
      message: 'A moment after the last step, the page tried to send what is held here; this step did not run and runs once the person has decided.',
    })
  }
  return obs.failed({
    code: 'PERMISSION_DENIED',
    message: `A moment after the last step, the page tried to open ${late.refused}, a site Tandem may not act on; the browser stopped it before anything was sent there, and this step did not run.`,
    origin: late.refused!,
  })
}

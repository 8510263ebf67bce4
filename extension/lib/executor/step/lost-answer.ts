import { mayNavigate } from '#protocol'
import { HELD } from '../barrier-outcome'
import type { ContentError } from '../content-channel'
import { tabClosed } from '../task-tab'
import { withEvidence, type LiveTab, type StepContext } from './context'
import { readPage } from './read-page'
import { afterMove, backTo, settle } from './settle'

/** The page gave no answer: tell a navigation it caused from one that cut it short, and never guess "done" otherwise. */
export async function lostAnswer(step: StepContext, before: LiveTab, lost: ContentError) {
  const { deps, action, obs } = step
  if (lost.reason === 'timeout') {
    obs.tab(await deps.tabs.get(before.id).catch(() => null))
    return obs.failed({ code: 'TIMEOUT', message: `${lost.message}; its outcome is unknown and it was not run again.` })
  }
  const now = await deps.tabs.get(before.id).catch(() => null)
  if (!now) return obs.failed(tabClosed())
  const navigated = now.status === 'loading' || now.url !== before.url || !!now.pendingUrl || !!deps.guard?.navigating()
  if (!navigated) {
    obs.tab(now)
    return obs.failed({ code: 'ACTION_FAILED', message: lost.message })
  }
  obs.mark('navigated', 1)
  // A page that unloads under an action that leaves it as its normal effect did what the action asked.
  if (mayNavigate(action)) {
    const moved = await afterMove(step, before.id, before.url, withEvidence(action) ? 'after' : 'observation')
    if (!deps.guard?.refusals().page) return moved
    await backTo(step, before)
    return obs.failed()
  }
  const settled = await settle(step, before.id, before.url)
  if (settled !== HELD && !('code' in settled)) await readPage(step, before.id)
  return obs.failed({ code: 'NAVIGATION_IN_PROGRESS', message: 'The page navigated away while the action ran; look again before retrying.' })
}

import type { NavigationFailure, ObservationError } from '#protocol'
import { describeNavigationFailure, parseWebAddress } from '#protocol'
import { HELD } from '../barrier-outcome'
import { checkSiteAccess } from '../site-access'
import { shootBefore, withEvidence, type LiveTab, type StepContext } from './context'
import { readPage } from './read-page'
import { described, settle } from './settle'

export async function navigate(step: StepContext, current: LiveTab | null) {
  const { deps, action, obs } = step
  const asked = String(action.params.url ?? '')
  obs.page({ url: asked })
  // The server checks the address before it sends the step; a step from an older server is checked here too.
  const address = parseWebAddress(asked)
  if (!address.ok) return obs.failed(navigationFailed({ reason: 'invalid-url', url: asked, problem: address.problem }))
  const url = address.url
  const refusal = await checkSiteAccess(deps.permissions, url, deps.serverUrl)
  if (refusal) return obs.failed(refusal)
  if (current && withEvidence(action)) await shootBefore(step, current)
  let tabId: number
  // Apart from each other, so side by side: the started mark, the guard's rules for the address, and the barrier
  // still on after the last step (see WriteBarrier.stepEnded), which would make the page wait on it as it loads.
  const ready = current ? Promise.all([deps.guard?.engage(current.id, url), deps.barrier?.rest(current.id)]) : undefined
  ready?.catch(() => undefined)
  await deps.touching()
  const watch = deps.watchNavigation?.()
  try {
    if (current) {
      await ready
      await deps.tabs.update(current.id, { url })
      tabId = current.id
    } else {
      const created = await deps.tabs.create({ url, active: true })
      if (created.id === undefined) return obs.failed({ code: 'INVALID_TASK_TAB', message: 'The browser opened no tab.' })
      tabId = created.id
      await deps.guard?.engage(tabId, url)
      await deps.rememberTab(action.taskId, tabId)
    }
    const label = withEvidence(action) ? 'after' : 'observation'
    const settled = await settle(step, tabId, current?.url)
    // A page that could not be read may be the browser's error page: its network error may come a moment later.
    const failure = settled === HELD ? null : await watch?.failure(tabId, 'code' in settled ? 1000 : 0)
    if (!failure) return described(step, tabId, settled, label)
    // The step did not bring up its page: it fails itself, with what the site (or the network) said.
    if (settled !== HELD && !('code' in settled) && failure.reason === 'http-status') {
      await readPage(step, tabId)
      obs.shot(await step.shoot(settled, label))
    }
    return obs.failed(navigationFailed(failure))
  } finally {
    watch?.stop()
  }
}

const navigationFailed = (details: NavigationFailure): ObservationError => ({
  code: 'NAVIGATION_FAILED',
  message: describeNavigationFailure(details, 'en'),
  details,
})

import { shootBefore, withEvidence, type LiveTab, type StepContext } from './context'
import { afterMove } from './settle'

export async function back(step: StepContext, current: LiveTab) {
  const { deps, action, obs } = step
  if (withEvidence(action)) await shootBefore(step, current)
  await deps.touching()
  await deps.barrier?.rest(current.id)
  try {
    await deps.tabs.goBack(current.id)
  } catch {
    return obs.failed({ code: 'ACTION_FAILED', message: 'There is no earlier page in this tab.' })
  }
  return afterMove(step, current.id, current.url, withEvidence(action) ? 'after' : 'observation')
}

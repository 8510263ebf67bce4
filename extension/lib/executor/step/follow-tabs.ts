import type { ObservationError, ObservationInput } from '#protocol'
import { HELD } from '../barrier-outcome'
import { tabClosed } from '../task-tab'
import { movedTo, numberOf, ownedTabs, tabIdOf, withOpened, withoutTab } from '../task-tabs'
import { withEvidence, type LiveTab, type StepContext } from './context'
import { readPage } from './read-page'
import { settle } from './settle'

/** switch_tab and close_tab: the task's tab it moves to (made the one in front), or why it cannot. */
export async function changeTabs(step: StepContext, current: LiveTab): Promise<LiveTab | ObservationError> {
  const { deps, action } = step
  const task = await deps.taskTabs?.read(action.taskId)
  if (!task || !deps.taskTabs) return { code: 'INVALID_TASK_TAB', message: 'This task has no other tabs.' }
  const asked = typeof action.params.tab === 'number' ? action.params.tab : numberOf(task, current.id)
  const tabId = asked === undefined ? undefined : tabIdOf(task, asked)
  const numbers = ownedTabs(task).map((t) => t.tab).join(', ')
  if (tabId === undefined) return { code: 'INVALID_TASK_TAB', message: `The task has no tab ${asked}; its tabs are ${numbers}.` }
  let to = tabId
  if (action.type === 'close_tab') {
    if (ownedTabs(task).length < 2) return { code: 'ACTION_FAILED', message: "This is the task's only tab; it stays open." }
    await deps.touching()
    await deps.tabs.remove(tabId).catch(() => undefined)
    const after = await deps.taskTabs.change(action.taskId, (t) => withoutTab(t, tabId))
    to = after?.tabId ?? current.id
  } else {
    await deps.touching()
    await deps.taskTabs.change(action.taskId, (t) => movedTo(t, tabId))
  }
  const live = (await deps.tabs.get(to).catch(() => null)) as LiveTab | null
  if (!live) {
    await deps.taskTabs.change(action.taskId, (t) => withoutTab(t, to))
    return tabClosed()
  }
  if (!live.active) await deps.tabs.update(to, { active: true }).catch(() => undefined)
  await deps.guard?.engage(to, live.url)
  return live
}

/**
 * An in-page step whose page opened tabs (a link with target=_blank, window.open): they become the task's, and
 * the task follows the newest one, reading its page there, unless the step failed or waits on the person.
 */
export async function followOpened(step: StepContext, from: LiveTab, run: (tab: LiveTab) => Promise<ObservationInput>): Promise<ObservationInput> {
  const { deps, action, obs } = step
  const watch = deps.taskTabs ? deps.watchOpened?.([from.id]) : undefined
  let result: ObservationInput
  try {
    result = await run(from)
  } finally {
    watch?.stop()
  }
  const opened = watch?.opened() ?? []
  if (!opened.length || !deps.taskTabs) return result
  await deps.taskTabs.change(action.taskId, (t) => withOpened(t, opened))
  await deps.groupTabs?.(action.taskId).catch((error: unknown) => console.warn('[tandem] the task tabs could not be grouped', error))
  const waiting = !!(result.held?.length || result.blocked?.length)
  const refused = deps.guard?.refusals().page
  if (refused) await closeRefused(step, opened.map((o) => o.tabId), refused)
  if (result.status !== 'done' || waiting || refused) return result
  const to = opened[opened.length - 1]!.tabId
  const settled = await settle(step, to, undefined)
  if (settled === HELD) return result
  if ('code' in settled) {
    // A tab the task may not read (a site nobody granted) stays the task's, but the task stays where it was.
    return { ...result, errors: [...(result.errors ?? []), { ...settled, message: `The step opened a new tab the task could not follow: ${settled.message}` }] }
  }
  await deps.taskTabs.change(action.taskId, (t) => movedTo(t, to))
  step.moves.opened = to
  await readPage(step, to)
  obs.shot(await step.shoot(settled, withEvidence(action) ? 'after' : 'observation'))
  return { ...result, ...obs.done() }
}

/**
 * Tabs the step opened for a site the guard stopped are left on the browser's error page: they are closed, so the
 * step, once the person allows the site, opens its tab afresh instead of the task keeping a dead one.
 */
async function closeRefused(step: StepContext, tabIds: number[], origin: string) {
  const { deps, action } = step
  for (const tabId of tabIds) {
    const tab = await deps.tabs.get(tabId).catch(() => null)
    const url = tab?.pendingUrl || tab?.url || ''
    if (tab && (!URL.canParse(url) || new URL(url).origin !== origin)) continue
    await deps.tabs.remove(tabId).catch(() => undefined)
    await deps.taskTabs!.change(action.taskId, (t) => withoutTab(t, tabId))
  }
}

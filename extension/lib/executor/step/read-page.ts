import type { ObservationError, Target } from '#protocol'
import type { ContentReply } from '../../messages'
import { runsTandem } from '../content-channel'
import { checkSiteAccess } from '../site-access'
import type { LiveTab, StepContext } from './context'

export async function readPage(step: StepContext, tabId: number) {
  const { obs } = step
  try {
    // The page is read once it has gone still (a page that renders after its load event), as after an action.
    const { settle, ...page } = await step.deps.content.ask(tabId, { kind: 'observe', settle: true }, 15_000)
    obs.page(page)
    obs.settle(settle)
    if (settle) obs.mark('page.loadSettleMs', settle.ms)
    obs.mark('observedMs')
    return true
  } catch (error) {
    obs.error({ code: 'PAGE_PREP_FAILED', message: `The page could not be read: ${(error as Error).message}` })
    return false
  }
}

export async function observe(step: StepContext, current: LiveTab, label: 'observation' | 'screenshot') {
  // The picture for a confirmation card names the element the step is about: in view, and marked on the picture.
  const target = step.action.target
  const located = target ? await locate(step, current.id, target) : {}
  if (!(await readPage(step, current.id))) return step.obs.failed()
  if (located.name) step.obs.targetName(located.name)
  const shot = await step.shoot(current, label)
  // Measured again as the picture was taken: attaching the debugger to capture it can show Chrome's "started
  // debugging" bar, which shortens the page's view after the first measure.
  const mark = target && 'artifact' in shot ? ((await locate(step, current.id, target)).mark ?? located.mark) : undefined
  step.obs.shot('artifact' in shot && mark ? { artifact: { ...shot.artifact, mark } } : shot)
  return step.obs.done()
}

async function locate(step: StepContext, tabId: number, target: Target): Promise<ContentReply<'locate'>> {
  try {
    return await step.deps.content.ask(tabId, { kind: 'locate', target }, 5_000)
  } catch {
    // Not found, or the page did not answer: the card shows the whole page, unmarked.
    return {}
  }
}

/**
 * Whether Tandem may act on the page, checked while its script is asked whether it runs there already; it is
 * started only in a page Tandem may act on.
 */
export async function readyPage(step: StepContext, tabId: number, url: string | undefined): Promise<ObservationError | null> {
  const { deps } = step
  const alive = runsTandem(deps.content, tabId)
  const refusal = await checkSiteAccess(deps.permissions, url, deps.serverUrl)
  if (refusal) return refusal
  try {
    if (!(await alive)) await deps.content.ensure(tabId)
  } catch (error) {
    return { code: 'PAGE_PREP_FAILED', message: (error as Error).message }
  }
  return null
}

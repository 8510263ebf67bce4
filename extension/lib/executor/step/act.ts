import type { WxtBrowser as Browser } from 'wxt/browser'
import type { Action, BarrierMode, ObservationInput } from '#protocol'
import { firesHandlers } from '#protocol'
import type { ActOutcome } from '../../messages'
import { firstOf, withLeaks } from '../barrier-outcome'
import { ContentError } from '../content-channel'
import { shootBefore, withEvidence, type LiveTab, type StepContext } from './context'
import type { RunDeps } from './deps'
import { heldNow, heldStep } from './held-step'
import { withBlockedWrites, withNotes, withPopups } from './judge-writes'
import { lostAnswer } from './lost-answer'
import { readPage } from './read-page'
import { afterAnswer, backTo } from './settle'
import { beginTail, watchWrites } from './watch-writes'

/** How long the worker waits for the page's answer to an action before calling its outcome unknown. */
export function actionBudgetMs(action: Action): number {
  const asked = Number(action.params.timeoutMs)
  return (Number.isFinite(asked) && asked > 0 ? Math.min(asked, 120_000) : 15_000) + 15_000
}

/** The sites the person granted, as match patterns; none when the browser cannot say (the page then refuses every other site). */
export async function grantedSites(permissions: Pick<Browser['permissions'], 'getAll'>): Promise<string[]> {
  const all = await permissions.getAll().catch(() => null)
  return all?.origins ?? []
}

/** An in-page step: its writes watched, the page asked to act, and its outcome judged with what the watch caught. */
export async function act(step: StepContext, current: LiveTab, granted: Promise<string[]>) {
  const { deps, action } = step
  if (withEvidence(action)) await shootBefore(step, current)
  // Said while the barrier and the block get ready: nothing of the step reaches the page before both are done.
  const touched = deps.touching()
  touched.catch(() => undefined)
  const sites = await granted
  const { barrier, blocking, watched } = await watchWrites(step, current)
  let tailed = false
  try {
    let result = await acted(step, current, sites, barrier, touched, watched)
    if (barrier) result = withLeaks(result, barrier.leaked(current.id))
    const opened = blocking ? deps.block!.popups() : []
    if (opened.length) result = await withPopups(step, result, opened, current)
    const noted = withNotes(result, barrier, current.id)
    tailed = await beginTail(step, current, result, !!barrier)
    return blocking ? withBlockedWrites(noted, deps.block!, barrier, current.id) : noted
  } finally {
    if (barrier && !tailed) await barrier.stepEnded(current.id)
    // Not waited for: the step's report does not need the rules gone, and the next step's block waits for it.
    if (blocking) void deps.block!.release()
  }
}

async function acted(step: StepContext, current: LiveTab, sites: string[], barrier: RunDeps['barrier'], touched: Promise<void>, watched: BarrierMode) {
  const { deps, action, obs } = step
  if (barrier) step.heldYet = async () => (await barrier.held(action.actionId)).length > 0
  let outcome = null
  let lost: ContentError | null = null
  await touched
  const sent = step.now()
  const asked = deps.content.ask(current.id, { kind: 'act', action, resultKey: deps.resultKey(action.actionId), sites, barrier: watched }, actionBudgetMs(action))
  // A page whose post is held waits for it (a form being submitted never answers): a hold ends the wait.
  let answered = false
  void asked.finally(() => (answered = true)).catch(() => undefined)
  const held = barrier ? await firstOf(asked, barrier.waitForHold(current.id, action.actionId, sent + actionBudgetMs(action), () => answered)) : false
  if (held === true) {
    asked.catch(() => undefined)
    return heldStep(step, current, undefined)
  }
  try {
    outcome = await asked
  } catch (error) {
    if (!(error instanceof ContentError)) throw error
    lost = error
    // The page may have stored its answer before the channel broke.
    outcome = await deps.readResult(action.actionId)
  }
  // Named before any hold: a held step is still the step on this element.
  if (outcome?.targetName) obs.targetName(outcome.targetName)
  if (outcome?.input) obs.input(outcome.input)
  if (outcome?.command) obs.command(outcome.command)
  // A handler may send the page away a moment later (a timer, a refresh it added): the hold lasts until then,
  // in the step's tail where there is one.
  const grace = sent + (deps.navigationGraceMs ?? 500)
  if (firesHandlers(action.type) && deps.tail && step.tailable && action.followed && outcome?.status === 'done') step.tailUntil = grace
  else if (firesHandlers(action.type)) {
    const quiet = deps.guard?.quiet(grace) ?? Promise.resolve()
    await (barrier ? Promise.race([quiet, barrier.waitForHold(current.id, action.actionId, grace)]) : quiet)
  }
  if (barrier && (await heldNow(step, current, barrier))) return heldStep(step, current, outcome?.page)
  obs.mark('actedMs')
  return outcome ? fromAnswer(step, current, outcome, barrier) : lostAnswer(step, current, lost!)
}

/** The page answered: where the step led the tab, read there, unless what it led to sent a write that is held. */
async function fromAnswer(step: StepContext, current: LiveTab, outcome: ActOutcome, barrier: RunDeps['barrier']): Promise<ObservationInput> {
  const { deps, action, obs } = step
  obs.page(outcome.page)
  obs.settle(outcome.settle)
  if (outcome.extracted !== undefined) obs.extracted(outcome.extracted)
  if (outcome.unmet) obs.unmet(outcome.unmet)
  for (const [k, v] of Object.entries(outcome.timing)) obs.mark(`page.${k}`, v)
  for (const error of outcome.errors) obs.error(error)
  const refusedEarly = !!deps.guard?.refusals().page
  let after = refusedEarly ? await backTo(step, current) : await afterAnswer(step, current, outcome.page?.url)
  // The browser may say it stopped the page only once the tab has settled on its error page.
  if (!refusedEarly && deps.guard?.refusals().page) after = await backTo(step, current)
  // The answer came from storage without a reading (its document went as it settled: a form posted in a frame).
  if (after === current && !outcome.page) await readPage(step, current.id)
  // A page the step led to may send a write as it loads (a form that submits itself).
  if (barrier && (await barrier.held(action.actionId)).length) return heldStep(step, after ?? current, undefined)
  if (withEvidence(action) && after) obs.shot(await step.shoot(after, 'after'))
  return outcome.status === 'done' ? obs.done() : obs.failed()
}

import type { WxtBrowser as Browser } from 'wxt/browser'
import type { Action, BarrierMode, ObservationInput } from '#protocol'
import { firesHandlers, mayNavigate, runsInPage } from '#protocol'
import { ContentError } from './content-channel'
import { withRefusals } from './navigation-guard'
import { checkSiteAccess } from './site-access'
import { tabsBeside, unreached } from './beside-page'
import { waitForTabLoad } from './tab-load'
import { activeTab, findTaskTab, tabClosed } from './task-tab'
import { HELD, firstOf, withLeaks } from './barrier-outcome'
import { backFromRefusedPosts } from './refused-post'
import type { NextStep } from './step-tail'
import { createStepContext, shootBefore, withEvidence, type LiveTab, type TabMoves } from './step/context'
import type { RunDeps } from './step/deps'
import { back } from './step/back'
import { changeTabs, followOpened } from './step/follow-tabs'
import { heldNow, heldStep } from './step/held-step'
import { withBlockedWrites, withNotes, withPopups } from './step/judge-writes'
import { lateStep } from './step/late-step'
import { navigate } from './step/navigate'
import { release } from './step/release'
import { observe, readPage, readyPage } from './step/read-page'
import { afterAnswer, afterMove, backTo, settle } from './step/settle'

export type { RunDeps } from './step/deps'

/** How long the worker waits for the page's answer to an action before calling its outcome unknown. */
export function actionBudgetMs(action: Action): number {
  const asked = Number(action.params.timeoutMs)
  return (Number.isFinite(asked) && asked > 0 ? Math.min(asked, 120_000) : 15_000) + 15_000
}

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
  const { obs, now, loadTimeoutMs, shoot } = step

  // An in-page step's words are checked again in the page, against how its writes are watched (RiskGate); a step
  // the worker runs (a navigation, going back) is never under the barrier, so its risk alone asks.
  if ((action.requiresConfirmation || (action.risk === 'high' && !runsInPage(action.type))) && !action.confirmation) {
    return obs.failed({ code: 'CONFIRMATION_REQUIRED', message: 'A high-risk action must carry the person’s approval; it was not run.' })
  }
  const choice = await findTaskTab(deps.tabs, action, deps.state)
  // Whatever the last step's handlers did a moment after it was reported is heard before anything else runs (see
  // StepTail.end for what becomes of a tail that caught nothing).
  const next: NextStep = action.confirmation || action.type === 'release' ? 'other' : runsInPage(action.type) ? (deps.barrier ? 'takes-over' : 'other') : 'looks'
  const { late, handed } = (await deps.tail?.end(action.taskId, next)) ?? { late: null, handed: null }
  moves.handed = handed
  if (choice.kind === 'error') return obs.failed(choice.error)
  if (late && action.type !== 'release' && choice.kind === 'tab') return lateStep(step, choice.tab, late)
  // A held write belongs to the step it came from: a task that moves on to anything else lets it fail.
  if (action.type === 'release') return release(step, choice.kind === 'tab' ? choice.tab : null)
  const refusing = deps.barrier
    ?.refuse((h) => h.taskId === action.taskId && h.stepId !== handed?.actionId)
    .then((refused) => backFromRefusedPosts(deps.tabs, refused))

  if (action.type === 'navigate') {
    await refusing
    return navigate(step, choice.kind === 'tab' ? choice.tab : null)
  }

  const loadOf = (tabId: number) => waitForTabLoad(deps.tabs, tabId, { timeoutMs: action.type === 'observe' ? loadTimeoutMs : loadTimeoutMs / 2 })
  let tab: LiveTab
  let loading: ReturnType<typeof loadOf> | undefined
  if (choice.kind === 'tab') {
    tab = choice.tab
    // Apart from each other (other steps' held writes, this tab's rules, the page's load): side by side.
    if (action.type !== 'switch_tab' && action.type !== 'close_tab') loading = loadOf(tab.id)
    await Promise.all([refusing, deps.guard?.engage(tab.id, tab.url)])
  } else {
    await refusing
    const adopted = await activeTab(deps.tabs)
    if (!adopted) return obs.failed({ code: 'INVALID_TASK_TAB', message: 'There is no open tab to run this task in.' })
    const refusal = await checkSiteAccess(deps.permissions, adopted.url, deps.serverUrl)
    if (refusal) return obs.failed(refusal)
    await deps.rememberTab(action.taskId, adopted.id)
    await deps.guard?.engage(adopted.id, adopted.url)
    tab = adopted
  }

  if (action.type === 'switch_tab' || action.type === 'close_tab') {
    const moved = await changeTabs(step, tab)
    if ('code' in moved) return obs.failed(moved)
    tab = moved
  }

  const loaded = await (loading ?? loadOf(tab.id))
  if (loaded === null) return obs.failed(tabClosed())
  if (loaded === 'timeout') {
    obs.tab(await deps.tabs.get(tab.id).catch(() => null))
    return obs.failed(
      action.type === 'observe'
        ? { code: 'PAGE_PREP_FAILED', message: `The page did not finish loading within ${loadTimeoutMs} ms.` }
        : { code: 'NAVIGATION_IN_PROGRESS', message: 'The page is still loading; nothing was done.' },
    )
  }
  tab = loaded as LiveTab
  obs.tab(tab)
  obs.mark('loadedMs')
  // What the page may reach, asked for while the page is made ready.
  const granted = runsInPage(action.type) ? grantedSites(deps.permissions) : null
  const unready = await readyPage(step, tab.id, tab.url)
  if (unready) return obs.failed(unready)

  if (runsInPage(action.type)) return followOpened(step, tab, (current) => act(current, granted!))
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

  async function act(current: LiveTab, granted: Promise<string[]>) {
    if (withEvidence(action)) await shootBefore(step, current)
    // Said while the barrier and the block get ready: nothing of the step reaches the page before both are done.
    const touched = deps.touching()
    touched.catch(() => undefined)
    const sites = await granted
    const barrier = action.confirmation ? undefined : deps.barrier
    const inherit = moves.handed?.tabId === current.id ? { inherit: moves.handed.actionId } : {}
    const barrierStep = { taskId: action.taskId, stepId: action.actionId, pageUrl: current.url, redact: action.redact, allow: action.allowWrites, askAlways: action.askAlways, ...inherit }
    // Beside the debugger only WebSocket openings are blocked (CDP cannot pause them); without it, every write. Both
    // are set up side by side, and a barrier that did not engage has the block set again for every write.
    const block = barrier ? deps.block : undefined
    const [barred, socketsBlocked] = await Promise.all([
      !!barrier && barrier.engage(current.id, barrierStep),
      !!block && block.engage(current.id, current.url, action.allowWrites, 'sockets'),
    ])
    if (barred && 'inherit' in inherit) moves.handed = null
    const blocking = !!block && (barred ? socketsBlocked : await block.engage(current.id, current.url, action.allowWrites, 'writes'))
    // The fallback blocks writes only while the step runs: a write its handlers send later must be waited for.
    step.tailable = !blocking || barred
    const watched: BarrierMode = barred ? 'held' : blocking ? 'blocked' : 'off'
    // A confirmed step runs with no barrier (it was asked about already): it says nothing of how the next is watched.
    if (!action.confirmation) moves.barrier = watched
    let tailed = false
    try {
      let result = await acted(current, sites, barred ? barrier : undefined, touched, watched)
      if (barred) result = withLeaks(result, barrier!.leaked(current.id))
      const opened = blocking ? deps.block!.popups() : []
      if (opened.length) result = await withPopups(step, result, opened, current)
      const noted = withNotes(result, barred ? barrier : undefined, current.id)
      tailed = await beginTail(current, result, barred)
      return blocking ? withBlockedWrites(noted, deps.block!, barred ? barrier : undefined, current.id) : noted
    } finally {
      if (barred && !tailed) await barrier!.stepEnded(current.id)
      // Not waited for: the step's report does not need the rules gone, and the next step's block waits for it.
      if (blocking) void deps.block!.release()
    }
  }

  /** A step that went as planned, with time left in its grace, leaves the guard and the barrier to its tail. */
  async function beginTail(current: LiveTab, result: ObservationInput, barred: boolean): Promise<boolean> {
    if (step.tailUntil === null || !deps.tail || step.tailUntil <= now() || result.held?.length || result.blocked?.length) return false
    if (deps.guard?.refusals().page) return false
    const tab = (await deps.tabs.get(current.id).catch(() => null)) as LiveTab | null
    if (!tab) return false
    deps.tail.begin({ taskId: action.taskId, actionId: action.actionId, tabId: tab.id, until: step.tailUntil, barred })
    return true
  }

  async function acted(current: LiveTab, sites: string[], barrier: RunDeps['barrier'], touched: Promise<void>, watched: BarrierMode) {
    if (barrier) step.heldYet = async () => (await barrier.held(action.actionId)).length > 0
    let outcome = null
    let lost: ContentError | null = null
    await touched
    const sent = now()
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
    if (outcome) {
      obs.page(outcome.page)
      obs.settle(outcome.settle)
      if (outcome.extracted !== undefined) obs.extracted(outcome.extracted)
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
      if (withEvidence(action) && after) obs.shot(await shoot(after, 'after'))
      return outcome.status === 'done' ? obs.done() : obs.failed()
    }
    return lostAnswer(current, lost!)
  }

  /** The page gave no answer: tell a navigation it caused from one that cut it short, and never guess "done" otherwise. */
  async function lostAnswer(before: LiveTab, lost: ContentError) {
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
}

/** The sites the person granted, as match patterns; none when the browser cannot say (the page then refuses every other site). */
async function grantedSites(permissions: Pick<Browser['permissions'], 'getAll'>): Promise<string[]> {
  const all = await permissions.getAll().catch(() => null)
  return all?.origins ?? []
}

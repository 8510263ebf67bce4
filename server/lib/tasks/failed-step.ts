import type { Action, ActionForm, Observation } from '#protocol'
import { moveTo, type PendingEvent } from './events'
import { finish } from './finish'
import { originOf, refusedAgain, siteQuestion } from './site-refusal'
import type { InFlight, Outcome, TaskRecord } from './task-record'

const failedOutcome = (action: Action, observation: Observation): Outcome => ({
  kind: 'failed',
  actionId: action.actionId,
  type: action.type,
  errors: observation.errors,
  url: observation.url,
})

/** Nothing ran: ask the person to authorise the site, then run the same step again. */
function askForSite(task: TaskRecord, action: Action, form: ActionForm, observation: Observation, events: PendingEvent[]) {
  task.queue.unshift(form)
  const denied = observation.errors.find((e) => e.code === 'PERMISSION_DENIED')?.origin
  const site = originOf(denied || observation.url || String(action.params.url ?? ''))
  const page = observation.url ? originOf(observation.url) : ''
  // Leaving for another site is what an injected instruction asks for: the person is told it came from the page.
  task.question =
    denied && page && page !== site
      ? `A step on ${page} would take the page to ${site}, a site Tandem has no permission to act on. Authorise it in the side panel only if you expected to go there; otherwise answer no.`
      : `Tandem has no permission to act on ${site}. Authorise this site in the side panel, then answer to continue.`
  task.askedSite = siteQuestion(task, site)
  events.push({ type: 'user.asked', data: { question: task.question, reason: 'PERMISSION_DENIED' } })
  moveTo(task, 'WAITING_USER', events, 'the site is not authorised')
}

/**
 * What the engine does with a step that failed: a release's failure is told to the planner, a write that left
 * unheld ends the task, a site without permission or a riskier element asks the person, a page still loading is
 * waited for; anything else goes to the planner (or, a second time at a refused site, ends the task).
 */
export function applyFailure(task: TaskRecord, current: InFlight, observation: Observation, refusedHere: string | null, events: PendingEvent[]) {
  const { action, form } = current
  const codes = new Set(observation.errors.map((e) => e.code))
  if (form.type === 'release') {
    task.queue = []
    task.lastOutcome = failedOutcome(action, observation)
    return
  }
  if (codes.has('WRITE_UNHELD')) {
    // Something may have reached the site unasked: no planner goes on from there; the person looks first.
    const unheld = observation.errors.find((e) => e.code === 'WRITE_UNHELD')!
    task.error = { code: 'WRITE_UNHELD', message: unheld.message }
    return finish(task, 'FAILED', events, 'a write left the browser unheld')
  }
  if (codes.has('PERMISSION_DENIED')) return askForSite(task, action, form, observation, events)
  if (codes.has('CONFIRMATION_REQUIRED') && !action.confirmation) {
    const blocked = observation.blocked ?? []
    for (const write of blocked) events.push({ type: 'write.refused', actionId: action.actionId, data: { request: write.request, why: 'blocked' } })
    if (blocked.length) task.blockedWrites = blocked.map((w) => w.request)
    // The extension judged the real element riskier than the server could, or the browser blocked what it sent:
    // ask the person before retrying.
    task.queue.unshift({ ...form, risk: 'high' } as typeof form)
    return
  }
  if (codes.has('NAVIGATION_IN_PROGRESS')) {
    task.queue.unshift({ type: 'observe' }, form)
    moveTo(task, 'WAITING_PAGE', events, 'the page is still loading')
    return
  }
  task.queue = []
  task.lastOutcome = failedOutcome(action, observation)
  if (refusedHere && refusedAgain(task, refusedHere, events)) return
  if (task.status === 'WAITING_PAGE') moveTo(task, 'RUNNING', events)
}

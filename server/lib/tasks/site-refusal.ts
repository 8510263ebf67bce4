import type { Observation, ObservationError } from '#protocol'
import { describeSiteRefused } from '#protocol'
import { finish } from './finish'
import type { RequestSource } from '../http/source'
import type { PendingEvent } from './events'
import type { TaskRecord } from './task-record'

export const originOf = (url: string | undefined): string => {
  if (!url || !URL.canParse(url)) return url ?? ''
  return new URL(url).origin
}

/**
 * The site a question about access is for, and whether the task starts there: nothing was done yet, or it is
 * the start URL's site. Refusing that one leaves the task nothing to do.
 */
export function siteQuestion(task: TaskRecord, origin: string): NonNullable<TaskRecord['askedSite']> {
  const start = origin === originOf(task.startUrl) || !task.steps.some((s) => s.outcome === 'done')
  return { origin, start }
}

export const isRefused = (task: TaskRecord, origin: string) => !!origin && (task.refusedSites ?? []).includes(origin)

export const siteRefusedError = (origin: string): ObservationError => ({
  code: 'SITE_REFUSED',
  message: `${describeSiteRefused(origin, 'en')} Go on without it, or finish.`,
  origin,
})

/** The refused site a PERMISSION_DENIED in this observation is about, if any. */
export function refusedSiteOf(task: TaskRecord, observation: Observation, actionUrl: string): string | null {
  const denied = observation.errors.find((e) => e.code === 'PERMISSION_DENIED')
  if (!denied || !task.refusedSites?.length) return null
  const site = originOf(denied.origin || observation.url || actionUrl)
  return isRefused(task, site) ? site : null
}

/** The observation with its PERMISSION_DENIED said as what it is: the person refused that site in this task. */
export const asRefusedHere = (observation: Observation, site: string): Observation => ({
  ...observation,
  errors: observation.errors.map((e) => (e.code === 'PERMISSION_DENIED' ? siteRefusedError(site) : e)),
})

/**
 * The person answered "Don't allow": the site is refused for the rest of the task. Refusing where the task starts,
 * or a site a script needs, ends the task as the person's choice; otherwise the planner hears it and goes on.
 */
export function refuseSite(task: TaskRecord, source: RequestSource, events: PendingEvent[]) {
  const asked = task.askedSite!
  task.refusedSites = [...new Set([...(task.refusedSites ?? []), asked.origin])]
  task.askedSite = undefined
  task.question = undefined
  task.queue = []
  if (asked.start || task.mode === 'script') {
    const message = asked.start
      ? `You did not allow ${asked.origin}, where the task starts, so the task ended.`
      : `You did not allow ${asked.origin}, which the script needs, so the task ended.`
    task.error = { code: 'CANCELED', message }
    events.push({ type: 'task.canceled', data: { reason: message, source } })
    finish(task, 'CANCELED', events, message)
    return
  }
  task.lastOutcome = {
    kind: 'answered',
    question: `May Tandem act on ${asked.origin}?`,
    answer: `No: the person did not allow ${asked.origin}. Tandem will not go there in this task; go on without it, or finish.`,
  }
}

/**
 * A step headed for a site the person refused in this task, stopped before anything ran: the planner is told, and
 * a second try ends the task (the planner would only keep asking for it).
 */
export function refusedAgain(task: TaskRecord, origin: string, events: PendingEvent[]): boolean {
  task.refusedAttempts = (task.refusedAttempts ?? 0) + 1
  if (task.refusedAttempts < 2) return false
  task.error = { code: 'SITE_REFUSED', message: `The task ended: it tried again to go to ${origin}, which you did not allow.` }
  finish(task, 'CANCELED', events, task.error.message)
  return true
}

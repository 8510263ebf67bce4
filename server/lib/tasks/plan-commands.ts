import type { PlanBody } from '#protocol'
import { onPlanSites, planSiteOf } from '#protocol'
import { conflict } from '../http/errors'
import type { RequestSource } from '../http/source'
import { noteAnswer } from './last-answer'
import { advance } from './advance'
import { finish } from './finish'
import type { Mutate } from './core'
import type { EngineDeps } from './deps'
import { setStatus } from './events'
import { assertControl } from './state-machine'

/** The person's one answer to a plan-first task's proposed plan. */
export function createPlanCommands(deps: EngineDeps, mutate: Mutate, kick: (taskId: string) => Promise<void>) {
  return {
    async answerPlan(body: PlanBody, source: RequestSource) {
      const observation = await deps.store.getObservation(body.taskId)
      const status = await mutate(body.taskId, async (task, events) => {
        assertControl(task.status, 'plan')
        if (task.plan?.state !== 'proposed') {
          throw conflict(`This task has no plan waiting for an answer (it is ${task.status}).`)
        }
        const at = new Date().toISOString()
        const by = source.clientId ?? 'api'
        noteAnswer(task, 'plan', source, { approved: body.approved, reason: body.reason }, at)
        if (!body.approved) {
          events.push({ type: 'plan.answered', data: { approved: false, ...(body.reason ? { reason: body.reason } : {}), by, at, source } })
          task.error = { code: 'CANCELED', message: body.reason ?? 'The person did not approve the plan.' }
          events.push({ type: 'task.canceled', data: { reason: body.reason ?? 'the plan was not approved', source } })
          finish(task, 'CANCELED', events, 'the person did not approve the plan')
          return task.status
        }
        const edited = !!body.plan && JSON.stringify(body.plan) !== JSON.stringify(task.plan.proposed)
        const approved = body.plan ?? task.plan.proposed
        events.push({
          type: 'plan.answered',
          data: { approved: true, ...(edited ? { edited: true, plan: approved } : {}), ...(body.reason ? { reason: body.reason } : {}), by, at, source },
        })
        task.plan = { ...task.plan, state: 'approved', approved, ...(edited ? { edited: true } : {}) }
        // The page the person told the task to start on is theirs, whatever the plan names.
        if (task.startUrl && !onPlanSites(approved.sites, task.startUrl)) task.plan.addedSites = [planSiteOf(task.startUrl)]
        // What the start held back until now: the task opens its start page, then plans its first step.
        if (task.startUrl && task.seq === 0) task.queue.push({ type: 'navigate', url: task.startUrl })
        setStatus(task, 'RUNNING', events, edited ? 'the person approved the plan as they edited it' : 'the person approved the plan')
        await advance(task, observation, deps, events)
        return task.status
      })
      void kick(body.taskId)
      return { status }
    },
  }
}

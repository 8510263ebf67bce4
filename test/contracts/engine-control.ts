import { describe, expect, it } from 'vitest'
import { agent } from '../support/agent'
import { CANARIES } from '../support/canaries'
import type { EngineContext } from './engine'
import { shopping } from './engine-tasks'

/** Pause, resume and cancel, long-polls, a server without an LLM, and credentials. */
export function testEngineControl(ctx: EngineContext) {
  describe('pause, resume, cancel', () => {
    it('pauses delivery and resumes with the same action', async () => {
      const { taskId } = await ctx.a.start({ script: shopping })
      const action = await ctx.a.nextAction(taskId)
      expect((await ctx.a.command('pause', taskId, 'I will do this part')).status).toBe('PAUSED')
      expect(await ctx.a.next(taskId, 200)).toMatchObject({ status: 'PAUSED', action: null })
      // The action already handed out may still finish; its result is kept while paused.
      expect((await ctx.a.report(action)).status).toBe('PAUSED')
      expect((await ctx.a.command('resume', taskId)).status).toBe('RUNNING')
      const second = await ctx.a.nextAction(taskId)
      expect(second.seq).toBe(2)
    })

    it('records a step the takeover ended as taken over, not failed, and hands out the next action at once on resume', async () => {
      const { taskId } = await ctx.a.start({ script: [{ type: 'navigate', url: 'http://127.0.0.1:9/shop' }, { type: 'waitFor', text: 'Order confirmed', timeoutMs: 40_000 }] })
      await ctx.a.report(await ctx.a.nextAction(taskId))
      const wait = await ctx.a.nextAction(taskId)
      expect(wait.type).toBe('waitFor')
      await ctx.a.command('pause', taskId, 'takeover: the person clicked in the page')
      const ended = { status: 'failed' as const, errors: [{ code: 'TAKEN_OVER' as const, message: 'The person took over while this action ran.' }] }
      expect((await ctx.a.report(wait, ended)).status).toBe('PAUSED')
      const view = await ctx.a.status(taskId)
      expect(view.steps.at(-1)).toMatchObject({ actionId: wait.actionId, outcome: 'taken_over' })
      expect(view.task.error).toBeUndefined()
      expect((await ctx.a.command('resume', taskId)).status).toBe('RUNNING')
      const started = Date.now()
      expect((await ctx.a.next(taskId, 0)).action).toMatchObject({ type: 'waitFor' })
      expect(Date.now() - started).toBeLessThan(1000)
    })

    it('resumes into the confirmation it was waiting for', async () => {
      const { taskId } = await ctx.a.start({ script: [{ type: 'click', text: 'Delete account' }] })
      await ctx.a.waitForConfirmation(taskId)
      await ctx.a.command('pause', taskId)
      expect((await ctx.a.command('resume', taskId)).status).toBe('WAITING_CONFIRMATION')
    })

    it('cancels, after which nothing is handed out and nothing more is allowed', async () => {
      const { taskId } = await ctx.a.start({ script: shopping })
      await ctx.a.nextAction(taskId)
      expect((await ctx.a.command('cancel', taskId, 'changed my mind')).status).toBe('CANCELED')
      expect(await ctx.a.next(taskId, 200)).toMatchObject({ status: 'CANCELED', action: null })
      for (const name of ['pause', 'resume', 'cancel'] as const) {
        const res = await ctx.server.api('POST', `/api/agent/${name}`, { taskId })
        expect(res.status).toBe(409)
        expect(res.body.error.code).toBe('CONFLICT')
      }
      expect((await ctx.a.status(taskId)).task.status).toBe('CANCELED')
    })

    it('refuses illegal moves without changing anything', async () => {
      const { taskId } = await ctx.a.start({ script: shopping })
      await ctx.a.nextAction(taskId)
      const before = await ctx.a.status(taskId)
      for (const [path, body] of [
        ['/api/agent/resume', { taskId }],
        ['/api/agent/answer', { taskId, answer: 'x' }],
        ['/api/agent/confirm', { taskId, actionId: before.currentAction!.actionId, approved: true }],
      ] as const) {
        const res = await ctx.server.api('POST', path, body)
        expect(res.status, path).toBe(409)
      }
      expect(await ctx.a.status(taskId)).toEqual(before)
    })
  })

  describe('polling', () => {
    it('long-polls and answers as soon as an action is ready', async () => {
      const b = agent(ctx.server, 'client_longpoll')
      const started = Date.now()
      const poll = b.next(undefined, 10_000)
      await new Promise((r) => setTimeout(r, 300))
      const { taskId } = await b.start({ script: shopping })
      const reply = await poll
      expect(reply.taskId).toBe(taskId)
      expect(reply.action?.type).toBe('navigate')
      expect(Date.now() - started).toBeLessThan(5000)
    })

    it('returns null after waitMs when there is no work', async () => {
      const idle = agent(ctx.server, 'client_idle')
      const started = Date.now()
      expect(await idle.next(undefined, 400)).toEqual({ taskId: null, status: null, action: null })
      expect(Date.now() - started).toBeGreaterThanOrEqual(380)
    })

    it('serves a client its oldest task and keeps others off it', async () => {
      const c = agent(ctx.server, 'client_owner')
      const { taskId } = await c.start({ script: shopping })
      expect((await c.next(undefined, 1000)).taskId).toBe(taskId)
      const other = await ctx.server.api('POST', '/api/agent/next', { clientId: 'client_intruder', taskId })
      expect(other.status).toBe(409)
    })

    it('gives a task started without a client to the most recently seen one', async () => {
      const recent = agent(ctx.server, 'client_recent')
      await recent.next(undefined, 0)
      const { taskId } = await recent.start({ script: shopping, clientId: null })
      expect((await recent.status(taskId)).task.clientId).toBe('client_recent')
    })

    it('lists tasks newest first', async () => {
      const res = await ctx.server.api('GET', '/api/agent/tasks')
      expect(res.status).toBe(200)
      const times = res.body.data.map((t: { createdAt: string }) => t.createdAt)
      expect(times).toEqual([...times].sort().reverse())
    })
  })

  describe('without an LLM', () => {
    it('refuses a goal-only task with LLM_NOT_CONFIGURED naming the variables', async () => {
      const res = await ctx.server.api('POST', '/api/agent/start', { goal: 'buy milk' })
      expect(res.status).toBe(503)
      expect(res.body.error.code).toBe('LLM_NOT_CONFIGURED')
      expect(res.body.error.message).toContain('TANDEM_LLM_BASE_URL')
      expect(res.body.error.message).toContain('TANDEM_LLM_MODEL')
    })
  })

  describe('credentials', () => {
    it('keeps a typed password out of the audit, the stored observation and the status', async () => {
      const password = CANARIES.password
      const { taskId } = await ctx.a.start({
        script: [
          { type: 'type', selector: 'input[type=password]', text: password },
          { type: 'click', text: 'Continue' },
        ],
      })
      const view = await ctx.a.waitForConfirmation(taskId)
      expect(JSON.stringify(view)).not.toContain(password)
      await ctx.a.confirm(taskId, view.pendingConfirmation!.actionId, true)
      const typing = await ctx.a.nextAction(taskId)
      expect(typing.params).toMatchObject({ text: password, sensitive: true })
      // An extension that slipped: the value shows up in what it reports.
      await ctx.a.report(typing, { visibleTextSnippet: `Your password ${password} is strong`, elementTree: `[0]<input type=text value="${password}">` })
      await ctx.a.report(await ctx.a.nextAction(taskId))
      await ctx.a.waitFor(taskId, 'SUCCEEDED')
      const audit = await ctx.server.api('GET', `/api/audit/${taskId}`)
      expect(audit.body.data.events.length).toBeGreaterThan(5)
      expect(JSON.stringify(audit.body)).not.toContain(password)
      expect(JSON.stringify(await ctx.a.status(taskId))).not.toContain(password)
      const stored = await ctx.backend.storedObservations(ctx.server)
      expect(stored.length).toBeGreaterThan(0)
      for (const text of stored) expect(text).not.toContain(password)
    })
  })
}

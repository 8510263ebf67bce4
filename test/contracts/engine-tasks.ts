import { describe, expect, it } from 'vitest'
import type { ScriptStep } from '#protocol'
import type { EngineContext } from './engine'

export const shopping: ScriptStep[] = [
  { type: 'navigate', url: 'http://127.0.0.1:9/shop' },
  { type: 'type', selector: 'input[name=q]', text: 'iPhone 15' },
  { type: 'click', text: 'Add to cart' },
]


/** Script tasks, confirmations and reports. */
export function testEngineTasks(ctx: EngineContext) {
  describe('script tasks', () => {
    it('runs start → next → report … → SUCCEEDED, in order', async () => {
      const { taskId, status } = await ctx.a.start({ script: shopping })
      expect(status).toBe('RUNNING')
      const seen: string[] = []
      for (let i = 0; i < shopping.length; i++) {
        const action = await ctx.a.nextAction(taskId)
        expect(action.seq).toBe(i + 1)
        seen.push(action.type)
        expect((await ctx.a.report(action)).accepted).toBe(true)
      }
      expect(seen).toEqual(['navigate', 'type', 'click'])
      const view = await ctx.a.waitFor(taskId, 'SUCCEEDED')
      expect(view.steps.map((s) => s.outcome)).toEqual(['done', 'done', 'done'])
      expect(view.task.result?.success).toBe(true)
      const after = await ctx.a.next(taskId)
      expect(after).toMatchObject({ taskId, status: 'SUCCEEDED', action: null })
    })

    it('says of each step whether the script’s next step follows at once, and not of the last', async () => {
      const { taskId } = await ctx.a.start({ script: [...shopping, { type: 'done', success: true, text: 'bought' }] })
      const followed: (boolean | undefined)[] = []
      for (let i = 0; i < shopping.length; i++) {
        const action = await ctx.a.nextAction(taskId)
        followed.push(action.followed)
        await ctx.a.report(action)
      }
      expect(followed).toEqual([true, true, undefined])
    })

    it('hands a script’s next step over with the report that asks for it, dispatched once', async () => {
      const { taskId } = await ctx.a.start({ script: shopping })
      const first = await ctx.a.nextAction(taskId)
      const res = await ctx.server.api('POST', '/api/agent/report', { taskId, actionId: first.actionId, observation: { status: 'done', url: 'http://127.0.0.1:9/shop', title: 'Shop' }, takeNext: true })
      expect(res.status).toBe(200)
      const handed = res.body.data.action
      expect(handed).toMatchObject({ taskId, seq: 2, type: 'type' })
      // A poll now sees the same action, not a second one; the audit has one dispatch of it.
      expect((await ctx.a.next(taskId)).action?.actionId).toBe(handed.actionId)
      const events = (await ctx.server.api('GET', `/api/audit/${taskId}`)).body.data.events as { type: string; actionId?: string }[]
      expect(events.filter((e) => e.type === 'action.dispatched' && e.actionId === handed.actionId)).toHaveLength(1)
      // Without takeNext the reply is as it was.
      const plain = await ctx.a.report(handed)
      expect(plain).not.toHaveProperty('action')
    })

    it('hands the same undelivered or unreported action to every poll, with the same actionId', async () => {
      const { taskId } = await ctx.a.start({ script: shopping })
      const first = await ctx.a.nextAction(taskId)
      const again = await ctx.a.nextAction(taskId)
      expect(again).toEqual(first)
      const concurrent = await Promise.all(Array.from({ length: 12 }, () => ctx.a.next(taskId, 2000)))
      expect(new Set(concurrent.map((r) => r.action?.actionId))).toEqual(new Set([first.actionId]))
    })

    it('targets by selector and by text, never inventing an index', async () => {
      const { taskId } = await ctx.a.start({ script: shopping.slice(1) })
      const typed = await ctx.a.nextAction(taskId)
      expect(typed.target).toEqual({ by: 'selector', value: 'input[name=q]' })
      expect(typed.params).toMatchObject({ text: 'iPhone 15' })
      await ctx.a.report(typed)
      const clicked = await ctx.a.nextAction(taskId)
      expect(clicked.target).toEqual({ by: 'text', value: 'Add to cart' })
    })

    it('opens startUrl first when one is given', async () => {
      const { taskId } = await ctx.a.start({ startUrl: 'http://127.0.0.1:9/start', script: [{ type: 'observe' }] })
      const first = await ctx.a.nextAction(taskId)
      expect(first).toMatchObject({ type: 'navigate', params: { url: 'http://127.0.0.1:9/start' } })
    })

    it('a failed step fails a script task with the reason', async () => {
      const { taskId } = await ctx.a.start({ script: shopping })
      const action = await ctx.a.nextAction(taskId)
      await ctx.a.report(action, { status: 'failed', errors: [{ code: 'TARGET_NOT_FOUND', message: 'no such button' }] })
      const view = await ctx.a.waitFor(taskId, 'FAILED')
      expect(view.task.error).toMatchObject({ code: 'TARGET_NOT_FOUND' })
      expect(view.task.error?.message).toContain('no such button')
    })

    it('runs done and ask_user steps of a script', async () => {
      const { taskId } = await ctx.a.start({
        script: [
          { type: 'ask_user', question: 'Which size?' },
          { type: 'done', success: true, text: 'finished early' },
        ],
      })
      const waiting = await ctx.a.waitFor(taskId, 'WAITING_USER')
      expect(waiting.task.question).toBe('Which size?')
      expect(['RUNNING', 'SUCCEEDED']).toContain((await ctx.a.answer(taskId, 'M')).status)
      const done = await ctx.a.waitFor(taskId, 'SUCCEEDED')
      expect(done.task.result).toEqual({ success: true, text: 'finished early' })
    })
  })

  describe('high-risk actions', () => {
    const checkout: ScriptStep[] = [
      { type: 'navigate', url: 'http://127.0.0.1:9/cart' },
      { type: 'click', text: 'Place order' },
    ]

    async function toConfirmation() {
      const { taskId } = await ctx.a.start({ script: checkout })
      await ctx.a.report(await ctx.a.nextAction(taskId))
      const view = await ctx.a.waitForConfirmation(taskId)
      return { taskId, view }
    }

    it('waits for the person, and is never handed out before approval', async () => {
      const { taskId, view } = await toConfirmation()
      const pending = view.pendingConfirmation!
      expect(pending.risk).toBe('high')
      expect(pending.reasons.length).toBeGreaterThan(0)
      expect(pending.action.requiresConfirmation).toBe(true)
      const poll = await ctx.a.next(taskId, 300)
      expect(poll).toMatchObject({ status: 'WAITING_CONFIRMATION', action: null })
      const early = await ctx.server.api('POST', '/api/agent/report', {
        taskId,
        actionId: pending.actionId,
        observation: { status: 'done', url: 'x', errors: [] },
      })
      expect(early.status).toBe(409)
      expect(early.body.error.code).toBe('CONFLICT')
    })

    it('is re-delivered with the confirmation once approved, then finishes', async () => {
      const { taskId, view } = await toConfirmation()
      const { actionId } = view.pendingConfirmation!
      expect((await ctx.a.confirm(taskId, actionId, true)).status).toBe('RUNNING')
      const action = await ctx.a.nextAction(taskId)
      expect(action.actionId).toBe(actionId)
      expect(action.confirmation).toMatchObject({ approved: true, by: expect.any(String), at: expect.any(String) })
      await ctx.a.report(action)
      await ctx.a.waitFor(taskId, 'SUCCEEDED')
    })

    it('a rejection stops a script task as FAILED with the reason', async () => {
      const { taskId, view } = await toConfirmation()
      await ctx.a.confirm(taskId, view.pendingConfirmation!.actionId, false, 'wrong address')
      const failed = await ctx.a.waitFor(taskId, 'FAILED')
      expect(failed.task.error?.message).toContain('wrong address')
      expect(failed.steps.at(-1)).toMatchObject({ outcome: 'rejected', note: 'wrong address' })
    })

    it('refuses a confirmation for another action or a task that is not waiting', async () => {
      const { taskId } = await toConfirmation()
      const wrong = await ctx.server.api('POST', '/api/agent/confirm', { taskId, actionId: 'a_nope', approved: true })
      expect(wrong.status).toBe(409)
      const { taskId: running } = await ctx.a.start({ script: shopping })
      const notWaiting = await ctx.server.api('POST', '/api/agent/confirm', { taskId: running, actionId: 'a_nope', approved: true })
      expect(notWaiting.status).toBe(409)
    })

    it('where the barrier holds the tab’s writes, runs a step its words alone would have asked about', async () => {
      const { taskId } = await ctx.a.start({ script: [...checkout, { type: 'click', text: 'Close my account', risk: 'high' }] })
      await ctx.a.report(await ctx.a.nextAction(taskId), { barrier: 'held' })
      const placed = await ctx.a.nextAction(taskId)
      // Still high by its words, for the audit and the evidence; what it sends is what the person is asked about.
      expect(placed).toMatchObject({ type: 'click', risk: 'high', requiresConfirmation: false })
      await ctx.a.report(placed, { barrier: 'held' })
      // A risk the script declared in its own words still asks first.
      const view = await ctx.a.waitForConfirmation(taskId)
      expect(view.pendingConfirmation?.action).toMatchObject({ type: 'click', risk: 'high', requiresConfirmation: true })
      expect(view.pendingConfirmation?.reasonDetails?.map((r) => r.code)).toContain('declared')
    })

    it('asks by the step’s words again where the tab’s writes are only blocked, or not watched', async () => {
      for (const barrier of ['blocked', 'off'] as const) {
        const { taskId } = await ctx.a.start({ script: checkout })
        await ctx.a.report(await ctx.a.nextAction(taskId), { barrier })
        const view = await ctx.a.waitForConfirmation(taskId)
        expect(view.pendingConfirmation?.action, barrier).toMatchObject({ type: 'click', requiresConfirmation: true })
      }
    })

    it('asks the person when the extension finds the real element riskier (CONFIRMATION_REQUIRED)', async () => {
      const { taskId } = await ctx.a.start({ script: [{ type: 'press', keys: 'Enter' }] })
      const action = await ctx.a.nextAction(taskId)
      expect(action.requiresConfirmation).toBe(false)
      await ctx.a.report(action, { status: 'failed', errors: [{ code: 'CONFIRMATION_REQUIRED', message: 'this submits a form' }] })
      const view = await ctx.a.waitForConfirmation(taskId)
      expect(view.pendingConfirmation?.action).toMatchObject({ type: 'press', risk: 'high', requiresConfirmation: true })
    })
  })

  describe('reports', () => {
    it('acknowledges a repeated report as a duplicate and never advances twice', async () => {
      const { taskId } = await ctx.a.start({ script: shopping })
      const first = await ctx.a.nextAction(taskId)
      expect(await ctx.a.report(first)).toMatchObject({ accepted: true, duplicate: false })
      const again = await Promise.all([ctx.a.report(first), ctx.a.report(first), ctx.a.report(first)])
      for (const r of again) expect(r).toMatchObject({ accepted: true, duplicate: true })
      const second = await ctx.a.nextAction(taskId)
      expect(second.seq).toBe(2)
      expect((await ctx.a.status(taskId)).steps).toHaveLength(1)
    })

    it('refuses a report for an action that is not in flight', async () => {
      const { taskId } = await ctx.a.start({ script: shopping })
      await ctx.a.nextAction(taskId)
      const stale = await ctx.server.api('POST', '/api/agent/report', {
        taskId,
        actionId: 'a_not_this_one',
        observation: { status: 'done', url: 'http://x', errors: [] },
      })
      expect(stale.status).toBe(409)
      expect(stale.body.error).toMatchObject({ code: 'CONFLICT', details: { inFlight: expect.any(String) } })
    })

    it('concurrent reports of the same action apply once', async () => {
      const { taskId } = await ctx.a.start({ script: shopping })
      const action = await ctx.a.nextAction(taskId)
      const replies = await Promise.all(Array.from({ length: 8 }, () => ctx.a.report(action)))
      expect(replies.filter((r) => !r.duplicate)).toHaveLength(1)
      expect((await ctx.a.status(taskId)).steps).toHaveLength(1)
    })

    it('a site without permission waits for the person, then runs the same step again', async () => {
      const { taskId } = await ctx.a.start({ script: shopping })
      const first = await ctx.a.nextAction(taskId)
      await ctx.a.report(first, { status: 'failed', url: 'http://shop.test/', errors: [{ code: 'PERMISSION_DENIED', message: 'not granted' }] })
      const view = await ctx.a.waitFor(taskId, 'WAITING_USER')
      expect(view.task.question).toContain('http://shop.test')
      await ctx.a.answer(taskId, 'authorised')
      const retry = await ctx.a.nextAction(taskId)
      expect(retry.actionId).not.toBe(first.actionId)
      expect(retry).toMatchObject({ type: first.type, params: first.params })
    })

    it('a step refused for leaving the page for another site says the page would leave for it', async () => {
      const { taskId } = await ctx.a.start({ script: shopping })
      const first = await ctx.a.nextAction(taskId)
      await ctx.a.report(first, {
        status: 'failed',
        url: 'http://shop.test/cart',
        errors: [{ code: 'PERMISSION_DENIED', message: 'would leave', origin: 'http://evil.test' }],
      })
      const view = await ctx.a.waitFor(taskId, 'WAITING_USER')
      expect(view.task.question).toContain('A step on http://shop.test would take the page to http://evil.test')
      expect(view.task.question).toMatch(/only if you expected to go there/)
    })
  })
}

import { describe, expect, it } from 'vitest'
import type { AllowedWrite, AuditEvent, HeldWrite, ScriptStep } from '#protocol'
import { ok } from '../support/agent'
import { PNG } from '../support/agent'
import type { EngineContext } from './engine'

const held: HeldWrite = {
  id: 'interception-1',
  reason: 'write-method',
  request: {
    method: 'POST',
    url: 'https://shop.test/api/drafts/7/delete',
    origin: 'https://shop.test',
    path: '/api/drafts/7/delete',
    kind: 'fetch',
    fields: [{ name: 'id', value: '7' }],
  },
}
const script: ScriptStep[] = [{ type: 'click', selector: '#tidy' }, { type: 'click', selector: '#next' }]
const after = { label: 'after' as const, contentType: 'image/png' as const, data: PNG }

/** A write the extension's barrier held while an unapproved step ran: the server turns it into the person's question. */
export function testEngineHeld(ctx: EngineContext) {
  const events = async (taskId: string) => (await ctx.server.api('GET', `/api/audit/${taskId}`)).body.data.events as AuditEvent[]

  async function heldTask() {
    const { taskId } = await ctx.a.start({ script })
    const click = await ctx.a.nextAction(taskId)
    expect(click.risk).toBe('low')
    const reply = await ctx.a.report(click, { held: [held], artifacts: [after] })
    expect(reply.status).toBe('WAITING_CONFIRMATION')
    return { taskId, click }
  }

  describe('writes held in the browser', () => {
    it('asks the person about a held write, with what was clicked, what it sends and the page after the click', async () => {
      const { taskId, click } = await heldTask()
      const view = await ctx.a.status(taskId)
      const pending = view.pendingConfirmation!
      expect(pending.action).toMatchObject({ type: 'release', risk: 'high', requiresConfirmation: true, params: { holds: ['interception-1'] } })
      // A selector is not a name a person reads: the card leaves the element unnamed rather than show `#tidy`.
      expect(pending.evidence).toMatchObject({ requests: [held.request], screenshot: { label: 'after' } })
      expect(pending.evidence?.targetText).toBeUndefined()
      expect(pending.reasonDetails).toEqual([{ code: 'held-write', method: 'POST', site: 'https://shop.test', path: '/api/drafts/7/delete' }])
      expect(view.steps.at(-1)).toMatchObject({ actionId: click.actionId, outcome: 'done' })
      expect((await events(taskId)).filter((e) => e.type === 'write.held')).toMatchObject([{ actionId: click.actionId, data: { request: held.request } }])
    })

    it('hands out the release only once approved, and records what went', async () => {
      const { taskId } = await heldTask()
      expect(await ctx.a.next(taskId, 0)).toMatchObject({ status: 'WAITING_CONFIRMATION', action: null })
      const pending = (await ctx.a.status(taskId)).pendingConfirmation!
      await ctx.a.confirm(taskId, pending.actionId, true)
      const release = await ctx.a.nextAction(taskId)
      expect(release).toMatchObject({ actionId: pending.actionId, type: 'release', confirmation: { approved: true } })
      await ctx.a.report(release, { released: [held] })
      // The script goes on with its next step.
      const next = await ctx.a.nextAction(taskId)
      expect(next.target).toEqual({ by: 'selector', value: '#next' })
      const released = (await events(taskId)).filter((e) => e.type === 'write.released')
      expect(released).toMatchObject([{ data: { request: held.request, by: expect.any(String), at: expect.any(String) } }])
    })

    it('records a rejected write as refused, and the planner hears the person said no', async () => {
      const { taskId } = await heldTask()
      const pending = (await ctx.a.status(taskId)).pendingConfirmation!
      await ctx.a.confirm(taskId, pending.actionId, false, 'keep the draft')
      const view = await ctx.a.waitFor(taskId, 'FAILED')
      expect(view.steps.at(-1)).toMatchObject({ type: 'release', outcome: 'rejected', note: 'keep the draft' })
      expect((await events(taskId)).filter((e) => e.type === 'write.refused')).toMatchObject([{ data: { why: 'rejected', request: held.request } }])
    })

    it('drops the question when the person takes over, and refuses the write', async () => {
      const { taskId } = await heldTask()
      expect((await ctx.a.command('pause', taskId)).status).toBe('PAUSED')
      // A script cannot know what the person did meanwhile: it stops there, saying nothing was sent.
      expect((await ctx.a.command('resume', taskId)).status).toBe('FAILED')
      const view = await ctx.a.status(taskId)
      expect(view.pendingConfirmation).toBeNull()
      expect(view.task.error?.message).toContain('was not sent')
      expect((await events(taskId)).filter((e) => e.type === 'write.refused')).toMatchObject([{ data: { why: 'paused' } }])
    })

    it('records telemetry the barrier dropped', async () => {
      const { taskId } = await ctx.a.start({ script })
      const click = await ctx.a.nextAction(taskId)
      const beacon = { ...held.request, url: 'https://www.google-analytics.com/g/collect', origin: 'https://www.google-analytics.com', path: '/g/collect', kind: 'beacon' as const }
      await ctx.a.report(click, { dropped: [beacon] })
      expect((await events(taskId)).filter((e) => e.type === 'write.dropped')).toMatchObject([{ actionId: click.actionId, data: { request: beacon } }])
      expect((await ctx.a.status(taskId)).pendingConfirmation).toBeNull()
    })

    describe('always allowed on this site', () => {
      const rule = { site: 'https://shop.test', method: 'POST', path: '/api/drafts/*/delete' }
      const allowed = () => ok<AllowedWrite[]>(ctx.server.api('GET', '/api/writes/allowed'))
      const forget = (body: unknown) => ctx.server.api('POST', '/api/writes/forget', body)
      const confirm = (taskId: string, actionId: string, approved: boolean, always: boolean) =>
        ok(ctx.server.api('POST', '/api/agent/confirm', { taskId, actionId, approved, always }))

      it('keeps nothing when the person rejects, or approves without ticking it', async () => {
        for (const [approved, always] of [[false, true], [true, false]] as const) {
          const { taskId } = await heldTask()
          const pending = (await ctx.a.status(taskId)).pendingConfirmation!
          await confirm(taskId, pending.actionId, approved, always)
          const answered = (await events(taskId)).find((e) => e.type === 'confirmation.answered')!
          expect(answered.data.always).toBeUndefined()
          await ctx.a.command('cancel', taskId).catch(() => undefined)
        }
        expect(await allowed()).toEqual([])
      })

      it('approved with "always", the kind of write is kept per site, audited, and every action after carries it', async () => {
        const { taskId } = await heldTask()
        const pending = (await ctx.a.status(taskId)).pendingConfirmation!
        await confirm(taskId, pending.actionId, true, true)
        const answered = (await events(taskId)).find((e) => e.type === 'confirmation.answered')!
        expect(answered.data).toMatchObject({ approved: true, always: true, allowWrites: [rule] })
        expect(await allowed()).toEqual([{ ...rule, at: expect.any(String), by: expect.any(String) }])

        const release = await ctx.a.nextAction(taskId)
        expect(release.allowWrites).toEqual([rule])
        await ctx.a.report(release, { released: [held] })
        expect((await ctx.a.nextAction(taskId)).allowWrites).toEqual([rule])
        // Another task gets it too, from its first action.
        const other = await ctx.a.start({ script })
        expect((await ctx.a.nextAction(other.taskId)).allowWrites).toEqual([rule])
        await ctx.a.command('cancel', other.taskId)
        await ctx.a.command('cancel', taskId)
      })

      it('asking again for the same kind keeps one rule, with the day it was first allowed', async () => {
        const [before] = await allowed()
        const { taskId } = await heldTask()
        await confirm(taskId, (await ctx.a.status(taskId)).pendingConfirmation!.actionId, true, true)
        expect(await allowed()).toEqual([before])
        await ctx.a.command('cancel', taskId).catch(() => undefined)
      })

      it('records the writes a step sent unasked because the person always allows them', async () => {
        const { taskId } = await ctx.a.start({ script })
        const click = await ctx.a.nextAction(taskId)
        const other = { ...held.request, url: 'https://shop.test/api/drafts/8/delete', path: '/api/drafts/8/delete' }
        await ctx.a.report(click, { allowed: [other] })
        expect((await events(taskId)).filter((e) => e.type === 'write.allowed')).toMatchObject([{ actionId: click.actionId, data: { request: other } }])
        expect((await ctx.a.status(taskId)).pendingConfirmation).toBeNull()
        await ctx.a.command('cancel', taskId)
      })

      it('forgets a rule on request, answering the list after; actions stop carrying it', async () => {
        expect((await forget({ site: rule.site, method: rule.method, path: '/other' })).body).toMatchObject({ ok: true, data: [rule] })
        expect((await forget(rule)).body).toEqual({ ok: true, data: [] })
        expect(await allowed()).toEqual([])
        const { taskId } = await ctx.a.start({ script })
        expect((await ctx.a.nextAction(taskId)).allowWrites).toBeUndefined()
        await ctx.a.command('cancel', taskId)
      })

      it('refuses a malformed rule with the error envelope, and both routes need the token', async () => {
        const bad = await forget({ site: 'https://shop.test', method: 'POST' })
        expect(bad.status).toBe(400)
        expect(bad.body).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } })
        expect((await ctx.server.api('GET', '/api/writes/allowed', undefined, { token: null })).status).toBe(401)
        expect((await ctx.server.api('POST', '/api/writes/forget', rule, { token: null })).status).toBe(401)
      })
    })

    it('asks about a write the last step’s handlers sent after its report, and runs the step that waited once the person decides', async () => {
      const { taskId } = await ctx.a.start({ script })
      const first = await ctx.a.nextAction(taskId)
      await ctx.a.report(first, {})
      const second = await ctx.a.nextAction(taskId)
      const error = { code: 'CONFIRMATION_REQUIRED' as const, message: 'A moment after the last step, the page tried to send what is held here.' }
      const reply = await ctx.a.report(second, { status: 'failed', errors: [error], held: [held], heldAfter: first.actionId, artifacts: [after] })
      expect(reply.status).toBe('WAITING_CONFIRMATION')
      const view = await ctx.a.status(taskId)
      // The write is the first step's, and the question says so.
      expect(view.pendingConfirmation!.action.params).toMatchObject({ holds: [held.id], after: first.actionId })
      expect((await events(taskId)).filter((e) => e.type === 'write.held')).toMatchObject([{ actionId: first.actionId }])
      await ctx.a.confirm(taskId, view.pendingConfirmation!.actionId, true)
      const release = await ctx.a.nextAction(taskId)
      await ctx.a.report(release, { released: [held] })
      // The step that did not run is handed out again.
      const again = await ctx.a.nextAction(taskId)
      expect(again.target).toEqual({ by: 'selector', value: '#next' })
      expect(again.actionId).not.toBe(second.actionId)
    })
  })
}

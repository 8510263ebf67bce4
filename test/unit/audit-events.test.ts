import { appendFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createStorage } from 'unstorage'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  AUDIT_EVENT_TYPES,
  KnownAuditEventBody,
  parseAuditEvent,
  type Action,
  type AuditEvent,
  type ObservationInput,
  type ScriptStep,
} from '#protocol'
import { createLlmPlanner } from '../../server/lib/agent/llm-planner'
import { createScriptPlanner } from '../../server/lib/agent/script-planner'
import { createArtifactStore, decodeArtifacts, type DecodedArtifact } from '../../server/lib/audit/artifacts'
import { createAuditLog } from '../../server/lib/audit/log'
import type { Completion, LlmGateway } from '../../server/lib/llm/gateway'
import { inProcessEngine } from '../support/engine'
import { REAL } from './audit-fixtures'

// Every event here is written by the real engine, planners and log over a real audit folder: what the server
// writes, not what a test thinks it writes.

const source = { clientId: 'c1', version: '0.1.0', userAgent: 'vitest' }
const SHOP = '[0]<input type=password name=password>\n[1]<a href="/next">Next</a>\n[2]<button>Place order</button>'
const page = (url: string, over: Partial<ObservationInput> = {}): ObservationInput => ({
  status: 'done',
  url,
  title: 'Shop',
  elementTree: SHOP,
  visibleTextSnippet: 'Shop',
  errors: [],
  timing: { totalMs: 12 },
  ...over,
})
const shot = { label: 'after' as const, contentType: 'image/png' as const, data: REAL.png }

/** A model in process that answers in turn from `answers` (text as it is, objects as JSON), then says the task is done. */
function scriptedModel(answers: (object | string)[]): LlmGateway {
  let call = 0
  return {
    model: 'scripted',
    async complete(): Promise<Completion> {
      const answer = answers[call++] ?? { next_goal: 'finish', actions: [{ type: 'done', success: true, text: 'done' }] }
      return { text: typeof answer === 'string' ? answer : JSON.stringify(answer), model: 'scripted', usage: { promptTokens: 100, completionTokens: 10, totalTokens: 110 }, latencyMs: 5, format: 'json_schema' }
    },
  }
}

let dir: string
const written: AuditEvent[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-audit-events-'))
  const audit = createAuditLog({ dir, fsync: false })
  const store = createArtifactStore({ dir, fsync: false })
  const storage = createStorage()
  const engine = inProcessEngine(storage, audit, {
    artifacts: { decode: (uploads) => decodeArtifacts(uploads, 1 << 20), save: (taskId, prefix, decoded) => store.write(taskId, decoded as DecodedArtifact[], prefix) },
    planners: {
      script: createScriptPlanner(),
      llm: createLlmPlanner({
        gateway: scriptedModel([
          { steps: ['Open the shop', 'Order'], sites: ['shop.example'], sends: [{ what: 'the order', kind: 'payment' }] },
          { thinking: 'two links', next_goal: 'go on', actions: [{ type: 'click', index: 1 }, { type: 'click', index: 1 }] },
          'not an answer',
          { next_goal: 'ask', actions: [{ type: 'ask_user', question: 'Which one?' }] },
        ]),
      }),
    },
    pollIntervalMs: 5,
  })
  const next = async (taskId: string): Promise<Action | null> => (await engine.next({ clientId: 'c1', taskId }, source)).action
  const report = (taskId: string, action: Action, observation: ObservationInput) =>
    engine.report({ taskId, actionId: action.actionId, observation: observation as never }, source)

  // A script bound on its first poll: a typed password, a risky click pictured then approved, a rejected one.
  const script: ScriptStep[] = [
    { type: 'type', selector: 'input[name=password]', text: 'hunter22' },
    { type: 'click', text: 'Place order' },
    { type: 'click', text: 'Place order' },
  ]
  const scripted = (await engine.start({ goal: 'order', startUrl: 'https://shop.example/', script }, source)).taskId
  let rejected = false
  for (let i = 0; i < 20; i++) {
    const view = await engine.status(scripted)
    if (view.pendingConfirmation) {
      await engine.confirm({ taskId: scripted, actionId: view.pendingConfirmation.actionId, approved: rejected, reason: 'checked' }, source)
      rejected = !rejected
      continue
    }
    const action = await next(scripted)
    if (!action) break
    await report(scripted, action, page('https://shop.example/', { artifacts: [shot] }))
  }

  // A site not authorised, answered; a pause and a resume; a cancel.
  const denied = (await engine.start({ goal: 'go', clientId: 'c1', script: [{ type: 'navigate', url: 'https://bank.example/' }] }, source)).taskId
  const go = (await next(denied))!
  await report(denied, go, page('https://shop.example/', { status: 'failed', errors: [{ code: 'PERMISSION_DENIED', message: 'no', origin: 'https://bank.example' }] }))
  await engine.answer({ taskId: denied, answer: 'done' }, source)
  await engine.pause({ taskId: denied, reason: 'let me' }, source)
  await engine.resume({ taskId: denied }, source)
  await engine.cancel({ taskId: denied, reason: 'enough' }, source)

  // A plan-first task: the model proposes its plan, and the person does not approve it.
  const planned = (await engine.start({ goal: 'plan it', clientId: 'c1', startUrl: 'https://shop.example/', planFirst: true }, source)).taskId
  await engine.kick(planned)
  await engine.answerPlan({ taskId: planned, approved: false, reason: 'not now' }, source)

  // The model: two clicks, the page changes under the first (the second is dropped), a bad answer, a question.
  const llm = (await engine.start({ goal: 'browse', clientId: 'c1' }, source)).taskId
  for (let i = 0; i < 10; i++) {
    await engine.kick(llm)
    const action = await next(llm)
    if (!action) break
    await report(llm, action, page(i === 1 ? 'https://shop.example/next' : 'https://shop.example/'))
  }

  // A crash tore the last line of a log: the next append cuts it and says so.
  appendFileSync(join(dir, scripted, 'events.jsonl'), '{"seq":')
  await createAuditLog({ dir, fsync: false }).append(scripted, { type: 'task.bound', data: { clientId: 'c1' } })

  for (const taskId of [scripted, denied, planned, llm]) written.push(...(await audit.read(taskId)))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the audit events the server writes', () => {
  it('every one parses as its known type', () => {
    expect(written.length).toBeGreaterThan(30)
    const unreadable = written.map(parseAuditEvent).flatMap((e) => (e.type === 'unknown' ? [`${e.event.type}: ${e.problem ?? 'unknown type'}`] : []))
    expect(unreadable).toEqual([])
  })

  it('covers every type but those the write barrier writes', () => {
    const seen = new Set(written.map((e) => e.type))
    expect(AUDIT_EVENT_TYPES.filter((t) => !seen.has(t))).toEqual(['write.held', 'write.released', 'write.refused', 'write.allowed', 'write.dropped', 'write.harmless'])
  })

  it('keeps the envelope and types the data', () => {
    const event = written.map(parseAuditEvent).find((e) => e.type === 'observation' && e.data.artifacts.length)
    expect(event).toMatchObject({ seq: expect.any(Number), taskId: expect.any(String), actionId: expect.any(String), hash: expect.any(String) })
    if (event?.type !== 'observation') throw new Error('no observation with a screenshot')
    expect(event.data.artifacts[0]).toMatchObject({ label: 'after', contentType: 'image/png', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) })
  })
})

describe('parseAuditEvent', () => {
  const envelope = (type: string, data: Record<string, unknown>, actionId?: string): AuditEvent => ({
    seq: 1,
    ts: '2026-01-01T00:00:00.000Z',
    taskId: 't1',
    type,
    ...(actionId ? { actionId } : {}),
    data,
    prevHash: '0'.repeat(64),
    hash: 'a'.repeat(64),
  })
  const request = { method: 'POST', url: 'https://shop.example/api/orders', origin: 'https://shop.example', path: '/api/orders', kind: 'fetch' }

  it('gives back a type it does not know untouched, with no problem named', () => {
    const event = envelope('some.future.event', { anything: 1 })
    expect(parseAuditEvent(event)).toEqual({ type: 'unknown', event })
  })

  it('names what is wrong with a known type whose data is not its shape', () => {
    const event = envelope('observation', { status: 'maybe' }, 'a1')
    expect(parseAuditEvent(event)).toEqual({ type: 'unknown', event, problem: expect.stringMatching(/^data\.status: /) })
  })

  it('keeps keys a newer writer added, and drops extras it cannot read rather than the event', () => {
    const parsed = parseAuditEvent(envelope('user.asked', { question: 'Which?', mood: 'curious' }))
    expect(parsed).toMatchObject({ type: 'user.asked', data: { question: 'Which?', mood: 'curious' } })
    const reasons = parseAuditEvent(envelope('confirmation.requested', { risk: 'high', reasons: ['x'], reasonDetails: [{ code: 'from-the-future' }] }, 'a1'))
    expect(reasons).toMatchObject({ type: 'confirmation.requested', data: { reasons: ['x'], reasonDetails: undefined } })
  })

  it('reads the write barrier events', () => {
    expect(parseAuditEvent(envelope('write.held', { request, reason: 'method', tabId: 3, stepActionId: 'a1' }))).toMatchObject({ type: 'write.held', data: { request: { fields: [] } } })
    expect(parseAuditEvent(envelope('write.released', { request, by: 'c1', at: '2026-01-01T00:00:01.000Z' })).type).toBe('write.released')
    expect(parseAuditEvent(envelope('write.refused', { request, why: 'lost' })).type).toBe('write.refused')
    expect(parseAuditEvent(envelope('write.dropped', { request, reason: 'telemetry-host' })).type).toBe('write.dropped')
    expect(parseAuditEvent(envelope('write.allowed', { request })).type).toBe('write.allowed')
    const rule = { site: 'https://shop.example', method: 'POST', path: '/api/orders' }
    expect(parseAuditEvent(envelope('write.allowed', { request, rule, scope: 'task' }))).toMatchObject({ type: 'write.allowed', data: { rule, scope: 'task' } })
    // A scope from a newer writer is dropped, never the event.
    expect(parseAuditEvent(envelope('write.allowed', { request, rule, scope: 'forever' }))).toMatchObject({ type: 'write.allowed', data: { rule, scope: undefined } })
    expect(parseAuditEvent(envelope('write.harmless', { request, kind: 'cart' }))).toMatchObject({ type: 'write.harmless', data: { kind: 'cart' } })
  })
})

describe('the event schemas refuse a wrong shape', () => {
  const request = { method: 'POST', url: 'https://x.test/a', origin: 'https://x.test', path: '/a', kind: 'fetch' }
  it.each([
    ['an action event without its actionId', { type: 'action.dispatched', data: { source: {} } }],
    ['a status that is no status', { type: 'task.status', data: { from: 'RUNNING', to: 'SLEEPING' } }],
    ['a proposed action that is not an action', { type: 'action.proposed', actionId: 'a1', data: { action: { type: 'click' }, risk: 'high', reasons: [] } }],
    ['a risk that is no risk', { type: 'confirmation.requested', actionId: 'a1', data: { risk: 'extreme', reasons: [] } }],
    ['an answer without who and when', { type: 'confirmation.answered', actionId: 'a1', data: { approved: true, source: {} } }],
    ['an observation error with no known code', { type: 'observation', actionId: 'a1', data: { status: 'failed', url: '', title: '', errors: [{ code: 'OOPS', message: '' }], artifacts: [], timing: {}, elementCount: 0, treeChars: 0 } }],
    ['a decision of no known kind', { type: 'planner.decision', data: { planner: 'llm', decision: { kind: 'maybe' } } }],
    ['a refusal for a reason the barrier does not give', { type: 'write.refused', data: { request, why: 'misplaced' } }],
    ['a held write with no request', { type: 'write.held', data: { reason: 'method' } }],
    ['a released write with a request of no known kind', { type: 'write.released', data: { request: { ...request, kind: 'carrier-pigeon' }, by: 'c1', at: '' } }],
  ])('%s', (_name, body) => {
    expect(KnownAuditEventBody.safeParse(body).success).toBe(false)
  })
})

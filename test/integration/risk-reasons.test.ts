import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeRiskReason, RiskReason, type AuditEvent, type ScriptStep } from '#protocol'
import { agent } from '../support/agent'
import { startServer, type TestServer } from '../support/server'

let server: TestServer
let a: ReturnType<typeof agent>
beforeAll(async () => {
  const rules = join(mkdtempSync(join(tmpdir(), 'tandem-reasons-')), 'rules.json')
  writeFileSync(rules, JSON.stringify({ high: { keywords: ['Archive'] } }))
  server = await startServer({ env: { TANDEM_POLICY_FILE: rules } })
  a = agent(server)
})
afterAll(() => server.close())

/** Runs the script up to the confirmation of its last step; returns the pending confirmation and the audit. */
async function confirmationOf(last: ScriptStep) {
  const { taskId } = await a.start({ script: [{ type: 'navigate', url: 'http://127.0.0.1:9/shop' }, last] })
  await a.report(await a.nextAction(taskId))
  const pending = (await a.waitForConfirmation(taskId)).pendingConfirmation!
  const events: AuditEvent[] = (await server.api('GET', `/api/audit/${taskId}`)).body.data.events
  const of = (type: string) => events.find((e) => e.type === type && e.actionId === pending.actionId)!.data
  return { pending, proposed: of('action.proposed'), requested: of('confirmation.requested') }
}

describe('risk reasons as data, beside the English sentences', () => {
  it.each<[string, ScriptStep, RiskReason]>([
    ['a built-in word', { type: 'click', text: 'Place order' }, { code: 'label-high', label: 'Place order', kind: 'payment' }],
    ['a word from the rules file', { type: 'click', text: 'Archive all' }, { code: 'label-rules', label: 'Archive all', keyword: 'Archive' }],
    ['a risk the script declares', { type: 'scroll', direction: 'down', risk: 'high' }, { code: 'declared', level: 'high' }],
  ])('%s reaches the confirmation and the audit', async (_name, step, detail) => {
    const { pending, proposed, requested } = await confirmationOf(step)
    expect(pending.reasonDetails).toEqual([detail])
    expect(pending.reasons).toEqual([describeRiskReason(detail, 'en')])
    for (const data of [proposed, requested]) {
      expect(data.reasonDetails).toEqual([detail])
      expect(data.reasons).toEqual(pending.reasons)
    }
  })

  it('keeps them for low-risk steps in the audit too, and none when nothing was risky', async () => {
    const { taskId } = await a.start({ script: [{ type: 'click', text: 'Add to cart' }, { type: 'scroll', direction: 'down' }] })
    await a.report(await a.nextAction(taskId))
    await a.report(await a.nextAction(taskId))
    await a.waitFor(taskId, 'SUCCEEDED')
    const events: AuditEvent[] = (await server.api('GET', `/api/audit/${taskId}`)).body.data.events
    const proposed = events.filter((e) => e.type === 'action.proposed').map((e) => e.data.reasonDetails)
    expect(proposed).toEqual([[{ code: 'label-medium', label: 'Add to cart', keyword: 'add to cart' }], []])
  })
})

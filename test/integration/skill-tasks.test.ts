import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agent, ok, PNG } from '../support/agent'
import { startServer, type TestServer } from '../support/server'

const SCRIPTED = `---
name: Order the usual
description: Opens the shop, puts the usual in the cart and places the order.
sites: [shop.test]
risk: high
script:
  - {"type": "navigate", "url": "http://shop.test/", "reason": "open the shop"}
  - {"type": "type", "selector": "input[name=q]", "text": "coffee beans"}
  - {"type": "click", "selector": "#place-order", "risk": "high", "reason": "place the order"}
---
## Steps
1. Search for coffee beans. 2. Place the order (needs approval).
`

const UNSCRIPTED = `---
name: Tidy the inbox
description: Archives newsletters older than a week.
---
Look for newsletters and archive them.
`

let server: TestServer
let a: ReturnType<typeof agent>
beforeAll(async () => {
  const skills = mkdtempSync(join(tmpdir(), 'tandem-skills-'))
  for (const [slug, text] of [['order-the-usual', SCRIPTED], ['tidy-inbox', UNSCRIPTED]]) {
    mkdirSync(join(skills, slug))
    writeFileSync(join(skills, slug, 'SKILL.md'), text)
  }
  server = await startServer({ env: { TANDEM_SKILLS_DIR: skills } })
  a = agent(server)
})
afterAll(() => server.close())

const start = (body: Record<string, unknown>) => server.api('POST', '/api/agent/start', { goal: 'get coffee', clientId: 'client_test_1', ...body })

describe('a start with a skill', () => {
  it('runs the skill’s script with no LLM, records the skill, and still asks before the risky step', async () => {
    const { taskId, status } = await ok<{ taskId: string; status: string }>(start({ skill: 'order-the-usual' }))
    expect(status).toBe('RUNNING')
    const view = await a.status(taskId)
    expect(view.task).toMatchObject({ mode: 'script', skill: 'order-the-usual' })

    const open = await a.nextAction(taskId)
    expect(open).toMatchObject({ type: 'navigate', params: { url: 'http://shop.test/' }, reason: 'open the shop' })
    await a.report(open)
    const search = await a.nextAction(taskId)
    expect(search).toMatchObject({ type: 'type', target: { by: 'selector', value: 'input[name=q]' }, params: { text: 'coffee beans' } })
    await a.report(search, { artifacts: [{ label: 'after', contentType: 'image/png', data: PNG }] })
    const waiting = await a.waitForConfirmation(taskId, { artifacts: [{ label: 'screenshot', contentType: 'image/png', data: PNG }] })
    expect(waiting.pendingConfirmation).toMatchObject({
      goal: 'place the order',
      action: { type: 'click', target: { by: 'selector', value: '#place-order' }, risk: 'high', requiresConfirmation: true },
    })
    await a.confirm(taskId, waiting.pendingConfirmation!.actionId, true)
    await a.report(await a.nextAction(taskId))
    const done = await a.waitFor(taskId, 'SUCCEEDED')
    expect(done.usage.llmCalls).toBe(0)

    const events = (await server.api('GET', `/api/audit/${taskId}`)).body.data.events
    expect(events[0]).toMatchObject({ type: 'task.created', data: { skill: 'order-the-usual', mode: 'script', scriptSteps: 3 } })
  })

  it('plans with the LLM when asked to (mode llm), which this server has none of', async () => {
    const res = await start({ skill: 'order-the-usual', mode: 'llm' })
    expect(res.status).toBe(503)
    expect(res.body.error.code).toBe('LLM_NOT_CONFIGURED')
  })

  it('uses the LLM for a skill without a script', async () => {
    const res = await start({ skill: 'tidy-inbox' })
    expect(res.body.error.code).toBe('LLM_NOT_CONFIGURED')
  })

  it('refuses mode script for a skill without a script, naming the skill', async () => {
    const res = await start({ skill: 'tidy-inbox', mode: 'script' })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('BAD_REQUEST')
    expect(res.body.error.message).toContain('tidy-inbox')
  })

  it('refuses mode script with neither script nor skill, and mode llm beside a script', async () => {
    expect((await start({ mode: 'script' })).body.error.code).toBe('BAD_REQUEST')
    const both = await start({ mode: 'llm', script: [{ type: 'observe' }] })
    expect(both.status).toBe(400)
    expect(both.body.error.code).toBe('BAD_REQUEST')
  })

  it('answers NOT_FOUND for an unknown skill', async () => {
    const res = await start({ skill: 'no-such-skill' })
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe('NOT_FOUND')
    expect(res.body.error.message).toContain('no-such-skill')
  })

  it('runs a script given in the request as it is, and records the skill it names', async () => {
    const { taskId } = await ok<{ taskId: string }>(start({ skill: 'tidy-inbox', script: [{ type: 'observe' }] }))
    expect((await a.status(taskId)).task).toMatchObject({ mode: 'script', skill: 'tidy-inbox' })
    expect((await a.nextAction(taskId)).type).toBe('observe')
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ScriptStep } from '#protocol'
import { agent } from '../support/agent'
import { startServer, type TestServer } from '../support/server'

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const script: ScriptStep[] = [
  { type: 'navigate', url: 'http://127.0.0.1:9/a' },
  { type: 'click', text: 'Next' },
  { type: 'click', text: 'Place order' },
  { type: 'type', selector: '#note', text: 'thanks' },
]

describe('a server killed with SIGKILL mid-task', () => {
  it('continues each task where it was, with nothing lost and nothing run twice', async () => {
    const a = agent(server)
    const { taskId } = await a.start({ script })
    await a.report(await a.nextAction(taskId))
    const inFlight = await a.nextAction(taskId) // step 2 handed out, not yet reported

    // A second task waiting for confirmation, and a third paused.
    const { taskId: confirming } = await a.start({ script: script.slice(2) })
    const pending = (await a.waitForConfirmation(confirming)).pendingConfirmation!
    const { taskId: paused } = await a.start({ script })
    await a.command('pause', paused)

    await server.kill('SIGKILL')
    await server.restart()

    const again = await a.nextAction(taskId)
    expect(again.actionId).toBe(inFlight.actionId)
    await a.report(again)
    // A report that was sent before the crash and is sent again is acknowledged, not applied twice.
    expect(await a.report(again)).toMatchObject({ duplicate: true })

    // Step 3 is the picture of the page taken before asking the person about step 4.
    const fourth = (await a.waitForConfirmation(taskId)).pendingConfirmation!
    expect(fourth.action.seq).toBe(4)
    expect((await a.status(confirming)).pendingConfirmation?.actionId).toBe(pending.actionId)
    expect((await a.status(paused)).task.status).toBe('PAUSED')

    await a.confirm(confirming, pending.actionId, true)
    const confirmed = await a.nextAction(confirming)
    expect(confirmed.confirmation?.approved).toBe(true)

    const view = await a.status(taskId)
    expect(view.steps.map((s) => s.seq)).toEqual([1, 2, 3])
    const audit = await server.api('GET', `/api/audit/${taskId}`)
    expect(audit.status).toBe(200)
    expect(audit.body.data.verified.ok).toBe(true)
    const dispatched = audit.body.data.events
      .filter((e: { type: string }) => e.type === 'action.dispatched')
      .map((e: { actionId: string }) => e.actionId)
    // Handed out once, though it was polled again after the restart.
    expect(dispatched.filter((id: string) => id === inFlight.actionId)).toHaveLength(1)
  })

  it('keeps the token across restarts', async () => {
    await server.kill('SIGKILL')
    await server.restart()
    const res = await server.api('GET', '/api/agent/tasks')
    expect(res.status).toBe(200)
  })
})

import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ScriptStep, TaskStatus } from '#protocol'
import { observationsByAction } from './support/harness'
import { startFaultProxy, type Exchange, type FaultProxy } from './support/faults/proxy'
import { actionIn } from './support/faults/rig'
import { useHarness } from './support/use-harness'

const h = useHarness()
let proxy: FaultProxy

beforeAll(async () => {
  // Every call of the extension goes through the proxy, which can be made to take requests and answer none.
  proxy = await startFaultProxy(() => h.server.url)
  await h.ext.setSettings({ serverUrl: proxy.url, token: h.server.token })
})
afterAll(async () => {
  proxy?.setHung(false)
  await proxy?.close()
})

const RUN = 'hung'
const NAME = 'Ada'
const GOAL = 'record a name while the server hangs'
const SCRIPT: ScriptStep[] = [
  { type: 'click', selector: '#add' },
  { type: 'waitFor', text: 'Counted', timeoutMs: 4000 },
  { type: 'type', selector: '#name', text: NAME },
  { type: 'click', selector: '#record' },
  { type: 'waitFor', text: `Recorded ${NAME}`, timeoutMs: 4000 },
]
const TERMINAL: TaskStatus[] = ['SUCCEEDED', 'FAILED', 'CANCELED']

/** The id of the task's action of this type, once the proxy has seen a reply deliver it (a next's, or a report's). */
function actionIdOf(taskId: string, type: string): string | undefined {
  for (const exchange of proxy.exchanges) {
    const action = actionIn(exchange)
    if (action?.taskId === taskId && action.type === type) return action.actionId
  }
  return undefined
}

const reportsOf = (actionId: string): Exchange[] =>
  proxy.exchanges.filter((e) => e.path === '/api/agent/report' && e.json?.actionId === actionId)

async function within<T>(promise: Promise<T>, what: string, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms)))
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

describe('a server that takes requests and never answers them', () => {
  it('has the panel say so within seconds, then clear, and the task finish once it answers, with nothing run twice', async () => {
    const panel = await h.ext.openPanel()
    // The panel reads the settings as it opens: the proxy's address, set after the harness opened it.
    await panel.reload()
    const link = panel.getByTestId('link')

    const { status, body } = await h.server.api('POST', '/api/agent/start', {
      goal: GOAL,
      clientId: h.clientId,
      startUrl: `${h.site.url}/tally?run=${RUN}&ms=0`,
      script: SCRIPT,
    })
    expect(status, JSON.stringify(body)).toBe(200)
    const taskId: string = body.data.taskId
    // The server hangs while the report of the typing is on its way: it gets and applies that report, but its
    // answer never comes back, nor does any answer to anything after it.
    const rule = proxy.holdRequest((e) => e.path === '/api/agent/report' && e.json?.taskId === taskId && e.json.actionId === actionIdOf(taskId, 'type'))
    await h.ext.wake()
    const held = await within(rule.held, 'the report of the typing', 60_000)
    const typed = held.exchange.json.actionId as string
    await expect.poll(() => panel.getByTestId('task').innerText(), { timeout: 10_000 }).toContain(GOAL)
    proxy.setHung(true)
    const hungAt = Date.now()
    held.release()

    // The panel's own status poll runs out its deadline: the header says the server is not answering.
    await expect.poll(() => link.innerText(), { timeout: 20_000 }).toBe('Server not answering')
    expect(await panel.getByTestId('status').innerText()).toMatch(new RegExp(`${proxy.url.replace(/[.:/]/g, '\\$&')} is not answering`))
    console.log(`the panel said "not answering" ${Date.now() - hungAt} ms after the server hung`)
    mkdirSync(join('e2e', 'output'), { recursive: true })
    writeFileSync(join('e2e', 'output', 'panel-not-answering.png'), await panel.screenshot({ fullPage: true }))

    // The worker's report runs out its own deadline and goes again, with the same actionId, into the same silence.
    await expect.poll(() => reportsOf(typed).length, { timeout: 45_000 }).toBeGreaterThanOrEqual(2)
    expect((await h.ext.storage<{ connection: string }>('tandem.activity')).connection).toBe('not_answering')

    proxy.setHung(false)
    await expect.poll(() => link.innerText(), { timeout: 30_000 }).toBe('Connected')
    expect(await panel.getByTestId('status').count()).toBe(0)

    const view = await h.waitFor(taskId, TERMINAL, 60_000)
    expect(view.task.status, JSON.stringify(view.steps, null, 1)).toBe('SUCCEEDED')
    await expect.poll(() => panel.getByTestId('task-status').innerText(), { timeout: 10_000 }).toBe('Done')

    // The page's own record: every action ran exactly once.
    expect(h.site.hits.filter((hit) => hit.startsWith(`${RUN}:`))).toEqual([`${RUN}:add`, `${RUN}:typed:${NAME}`, `${RUN}:record:${NAME}`])
    // The report went more than once, always as the same action; the server applied the first and acknowledged a later one.
    const reports = reportsOf(typed)
    expect(reports.length).toBeGreaterThanOrEqual(3)
    expect(reports.map((e) => e.json.observation.status)).toEqual(reports.map(() => 'done'))
    expect(reports.some((e) => e.response?.json?.data?.duplicate === true)).toBe(true)
    const events = await h.audit(taskId)
    for (const [actionId, observed] of observationsByAction(events)) expect(observed, actionId).toHaveLength(1)
    const received = events.filter((e) => e.type === 'report.received').map((e) => e.actionId)
    expect(new Set(received).size).toBe(received.length)
  }, 240_000)
})

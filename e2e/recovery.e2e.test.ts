import { describe, expect, it } from 'vitest'
import { observationsByAction } from './support/harness'
import { useHarness } from './support/use-harness'

const h = useHarness({ resetSite: true })

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('a service worker stopped mid-task', () => {
  it('resumes on the next wake, reports what the page finished meanwhile, and runs no action twice', async () => {
    const taskId = await h.runScript(
      [
        { type: 'click', selector: '#start' },
        { type: 'waitFor', text: 'Work ready', timeoutMs: 20_000 },
        { type: 'click', selector: '#finish' },
        { type: 'waitFor', text: 'Finished' },
      ],
      `${h.site.url}/work?ms=3000`,
    )
    // Wait until the long wait is in the page's hands, then stop the worker under it.
    const until = Date.now() + 30_000
    for (;;) {
      const view = await h.status(taskId)
      const events = await h.audit(taskId)
      const current = view.currentAction
      if (current?.type === 'waitFor' && events.some((e) => e.type === 'action.dispatched' && e.actionId === current.actionId)) break
      if (Date.now() > until) throw new Error(`the waitFor never started: ${JSON.stringify(view.steps)}`)
      await sleep(50)
    }
    await sleep(300)
    const before = await h.ext.worker()
    await before.evaluate(() => ((globalThis as { __tandemMarker?: number }).__tandemMarker = 1))
    await h.ext.stopWorker()
    // The page finishes its wait with no worker alive; its stored result (a storage change), the alarm or a
    // panel click starts a new worker. Nudge it as a click would, in case none of the others came first.
    await sleep(4000)
    await h.ext.wake()

    const view = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'], 60_000)
    expect(view.task.status, JSON.stringify(view.steps, null, 1)).toBe('SUCCEEDED')
    expect(h.site.hits).toEqual(['start', 'finish'])

    const events = await h.audit(taskId)
    const observed = observationsByAction(events)
    for (const [actionId, list] of observed) expect(list, actionId).toHaveLength(1)
    const reports = events.filter((e) => e.type === 'report.received')
    expect(new Set(reports.map((e) => e.actionId)).size).toBe(reports.length)
    // The wait's result came from storage, written by the page while no worker was alive.
    const wait = view.steps.find((s) => s.type === 'waitFor')!
    const waitObservation = observed.get(wait.actionId)![0]
    expect(waitObservation.data.status).toBe('done')
    expect((waitObservation.data.timing as Record<string, number>).recovered).toBe(1)
    // And it was a new worker that did so: the old one's memory is gone.
    const after = await h.ext.worker()
    expect(await after.evaluate(() => (globalThis as { __tandemMarker?: number }).__tandemMarker)).toBeUndefined()
  })
})

describe('a server that goes away', () => {
  it('backs off, says so, and picks the work up again when the server is back', async () => {
    const taskId = await h.runScript([{ type: 'observe' }, { type: 'observe' }], `${h.site.url}/arrived`)
    await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'])
    await h.server.kill('SIGKILL')
    await h.ext.wake()
    const until = Date.now() + 30_000
    let activity: { connection: string; message: string; retryAt: number | null } | undefined
    for (;;) {
      activity = await h.ext.storage('tandem.activity')
      if (activity?.connection === 'down') break
      if (Date.now() > until) throw new Error(`the extension never noticed: ${JSON.stringify(activity)}`)
      await sleep(200)
    }
    expect(activity!.message).toMatch(/not reachable/)
    expect(activity!.retryAt).toBeGreaterThan(Date.now())
    const panel = await h.ext.openPanel()
    await panel.reload()
    await expect.poll(() => panel.getByTestId('status').innerText()).toMatch(/not reachable/)

    await h.server.restart()
    const next = await h.runScript([{ type: 'observe' }], `${h.site.url}/arrived`)
    const view = await h.waitFor(next, ['SUCCEEDED', 'FAILED'])
    expect(view.task.status).toBe('SUCCEEDED')
    expect((await h.ext.storage<{ connection: string }>('tandem.activity')).connection).toBe('ok')
  })
})

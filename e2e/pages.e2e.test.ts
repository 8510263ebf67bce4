import { describe, expect, it } from 'vitest'
import { observationsByAction } from './support/harness'
import { taskPage } from './support/task-page'
import { useHarness } from './support/use-harness'

const h = useHarness({ resetSite: true })

const codesOf = (errors: unknown) => (errors as { code: string }[]).map((e) => e.code)

describe('pages that make acting hard', () => {
  it('acts inside an open shadow root and inside a same-origin iframe', async () => {
    const taskId = await h.runScript(
      [
        { type: 'click', text: 'Shadow action' },
        { type: 'waitFor', text: 'Shadow clicked' },
        { type: 'type', selector: '#newsletter', text: 'ada@example.com' },
        { type: 'click', text: 'Join newsletter' },
        { type: 'waitFor', text: 'Joined as ada@example.com' },
      ],
      `${h.site.url}/widgets`,
    )
    const view = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'])
    expect(view.task.status, JSON.stringify(view.steps, null, 1)).toBe('SUCCEEDED')
    expect(h.site.hits).toEqual(['shadow', 'joined:ada@example.com'])
  })

  it('waits for a slow page to load before observing it', async () => {
    const taskId = await h.runScript([{ type: 'observe' }, { type: 'click', selector: '#ok' }], `${h.site.url}/slow?ms=2500`)
    const view = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'])
    expect(view.task.status, JSON.stringify(view.steps, null, 1)).toBe('SUCCEEDED')
    const navigate = view.steps[0]
    expect(navigate).toMatchObject({ type: 'navigate', outcome: 'done', title: 'Slow page' })
    const events = await h.audit(taskId)
    const timing = observationsByAction(events).get(navigate.actionId)![0].data.timing as Record<string, number>
    expect(timing.loadedMs).toBeGreaterThanOrEqual(2000)
    // The click after the wait reached the button's handler on the loaded page.
    await expect.poll(() => h.site.hits).toEqual(['slow-ok'])
  })

  it('notices a page that navigates away in the middle of an action, looks again, and carries on', async () => {
    const taskId = await h.runScript([{ type: 'waitFor', text: 'You made it', timeoutMs: 15_000 }], `${h.site.url}/leaving?ms=1500`)
    const view = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'])
    expect(view.task.status, JSON.stringify(view.steps, null, 1)).toBe('SUCCEEDED')
    const types = view.steps.map((s) => `${s.type}:${s.outcome}:${codesOf(s.errors).join(',')}`)
    // The first wait was cut short by the page leaving; the engine looked again and the retry found the text.
    expect(types).toEqual(['navigate:done:', 'waitFor:failed:NAVIGATION_IN_PROGRESS', 'observe:done:', 'waitFor:done:'])
    expect(view.steps.at(-1)!.url).toBe(`${h.site.url}/arrived`)
    // And the tab really shows the text the wait reported finding.
    expect(await taskPage(h, view).locator('p').innerText()).toBe('You made it.')
  })

  it('refuses an index that no longer means the element it was chosen from (TARGET_STALE), and clicks nothing', async () => {
    const taskId = await h.runScript(
      [{ type: 'ask_user', question: 'Ready?' }, { type: 'click', index: 0 }],
      `${h.site.url}/stale`,
    )
    await h.waitFor(taskId, 'WAITING_USER')
    // The observation the index comes from: [0] is the apple button; after the re-render it would be banana.
    const events = await h.audit(taskId)
    expect(events.some((e) => e.type === 'observation')).toBe(true)
    const page = await h.ext.pageWith('/stale')
    await page.evaluate(() => (window as unknown as { reorder(): void }).reorder())
    await h.server.api('POST', '/api/agent/answer', { taskId, answer: 'go' })
    await h.ext.wake()
    const view = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'])
    expect(view.task.status).toBe('FAILED')
    const click = view.steps.find((s) => s.type === 'click')!
    expect(codesOf(click.errors)).toEqual(['TARGET_STALE'])
    expect(h.site.hits).toEqual([])
  })
})

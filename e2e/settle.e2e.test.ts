import { describe, expect, it } from 'vitest'
import { observationsByAction } from './support/harness'
import { taskPage } from './support/task-page'
import { useHarness } from './support/use-harness'

const h = useHarness({ resetSite: true })

describe('settling after a step', () => {
  it('reads the page once a popup has faded in, so its options are in what the model sees, and says how long that took', async () => {
    const taskId = await h.runScript([{ type: 'click', text: 'Choose a city' }], `${h.site.url}/popup`)
    const view = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'])
    expect(view.task.status, JSON.stringify(view.steps, null, 1)).toBe('SUCCEEDED')
    // The click opened the popup in the page itself: its options are there and shown.
    const page = taskPage(h, view)
    expect(await page.getByRole('option').allInnerTexts()).toEqual(['Beijing', 'Shanghai', 'Shenzhen'])
    expect(await page.locator('.popup.open').isVisible()).toBe(true)
    const [navigate, click] = view.steps
    const events = await h.audit(taskId)
    const before = observationsByAction(events).get(navigate!.actionId)![0]!.data as { elementCount: number; settle?: { ms: number; quiet: boolean } }
    const after = observationsByAction(events).get(click!.actionId)![0]!.data as { elementCount: number; settle?: { ms: number; quiet: boolean }; timing: Record<string, number> }
    // The button alone before; then its listbox and three options too (read at opacity 0, they would be missing).
    expect(before.elementCount).toBe(1)
    expect(after.elementCount).toBe(5)
    expect(after.settle?.quiet).toBe(true)
    expect(after.settle?.ms).toBeGreaterThanOrEqual(300)
    expect(after.settle?.ms).toBeLessThan(1500)
    expect(after.timing['page.settleMs']).toBeGreaterThanOrEqual(300)
    // The page read after the navigation settled too, and quickly: nothing moved there.
    expect(before.settle).toMatchObject({ quiet: true })
    expect(before.settle!.ms).toBeLessThan(1000)
  })
})

import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { act, action, observe, openFixture, useFixtureBrowser } from '../support/page-lib'

const env = useFixtureBrowser()
const HIDDEN = ['none', 'hidden', 'transparent', 'tiny', 'clipped', 'offscreen']

// What the model is shown as actionable is what a person can see and click; a page cannot slip it a hidden control.
describe('invisible controls', () => {
  let page: Page
  beforeAll(async () => {
    page = await openFixture(env.browser, env.fixtures, 'invisible.html')
  })

  it('are never listed in the element tree; a fixed box escapes the clipping around it and is', async () => {
    const snap = await observe(page)
    expect(snap.elementTree).toBe('[0]<button>Read more\n[1]<button>Open chat')
  })

  it('cannot be clicked by selector or text either, and nothing runs', async () => {
    for (const id of HIDDEN) {
      const bySelector = await act(page, action('click', { target: { by: 'selector', value: `#${id}` } }))
      expect(bySelector.status, id).toBe('failed')
      expect(bySelector.errors[0]?.code, id).toBe('TARGET_NOT_INTERACTABLE')
    }
    const byText = await act(page, action('click', { target: { by: 'text', value: 'More (clipped)' } }))
    expect(byText.errors[0]?.code).toBe('TARGET_NOT_INTERACTABLE')
    expect(await page.locator('#status').textContent()).toBe('idle')
  })
})

import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openFixture, useFixtureBrowser } from '../support/page-lib'

const env = useFixtureBrowser()

type Settled = { ms: number; quiet: boolean }

/** Clicks a button as the page's own script would see it, then waits for the page to settle (in the page). */
function clickAndSettle(page: Page, id: string, opts: { quietMs?: number; maxMs?: number } = {}): Promise<Settled & { opacity: string | null }> {
  return page.evaluate(
    async ({ id, opts }) => {
      const w = window as any
      document.getElementById(id)!.click()
      const settled = await w.__tandemPage.waitForSettle(window, opts)
      const popup = document.getElementById('popup')
      return { ...settled, opacity: popup ? getComputedStyle(popup).opacity : null }
    },
    { id, opts },
  )
}

/** As the content script does: watch from before the click, wait after it. */
function watchClickSettle(page: Page, id: string, opts: { quietMs?: number; unchangedMs?: number; unchangedFrames?: number } = {}): Promise<Settled & { opacity: string | null }> {
  return page.evaluate(async ({ id, opts }) => {
    const w = window as any
    const watch = w.__tandemPage.watchSettle(window)
    document.getElementById(id)!.click()
    const settled = await watch.settled(opts)
    const popup = document.getElementById('popup')
    return { ...settled, opacity: popup ? getComputedStyle(popup).opacity : null }
  }, { id, opts })
}

describe('watchSettle (from before the action)', () => {
  it('lets a step that changed nothing go after a few frames, not the whole quiet window', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'settle.html')
    // A long quiet window makes the difference plain even on a busy machine.
    const settled = await watchClickSettle(page, 'noop', { quietMs: 600, unchangedMs: 40 })
    expect(settled.quiet).toBe(true)
    expect(settled.ms).toBeGreaterThanOrEqual(38)
    expect(settled.ms).toBeLessThan(400)
    await page.close()
  })

  it('lets typing and scrolling that changed nothing go after two frames, yet catches what they set off within them', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'settle.html')
    const still = await page.evaluate(() => (window as any).__tandemPage.SETTLE_STILL)
    expect(still).toEqual({ unchangedMs: 20, unchangedFrames: 2 })
    const nothing = await watchClickSettle(page, 'noop', still)
    expect(nothing.quiet).toBe(true)
    expect(nothing.ms).toBeGreaterThanOrEqual(18)
    // A render two frames later starts the full window, and its fade-in is waited for.
    const rendered = await watchClickSettle(page, 'nextframes', still)
    expect(rendered.quiet).toBe(true)
    expect(rendered.ms).toBeGreaterThanOrEqual(250)
    expect(rendered.opacity).toBe('1')
    await page.close()
  })

  it("is not held by Tandem's own bar appearing or changing its state", async () => {
    const page = await openFixture(env.browser, env.fixtures, 'settle.html')
    const settled = await page.evaluate(async () => {
      const w = window as any
      const watch = w.__tandemPage.watchSettle(window)
      const host = document.createElement('tandem-indicator')
      host.setAttribute('data-tandem-ui', '')
      document.body.appendChild(host)
      host.setAttribute('data-state', 'running')
      return watch.settled({ quietMs: 600, unchangedMs: 40 })
    })
    expect(settled.quiet).toBe(true)
    expect(settled.ms).toBeLessThan(400)
    await page.close()
  })

  it('still catches a render that comes a moment after the action, and waits for its fade-in', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'settle.html')
    const settled = await watchClickSettle(page, 'later')
    expect(settled.quiet).toBe(true)
    expect(settled.ms).toBeGreaterThanOrEqual(275)
    expect(settled.opacity).toBe('1')
    await page.close()
  })

  it('waits the full window after a change the action made at once', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'settle.html')
    const settled = await watchClickSettle(page, 'open')
    expect(settled.ms).toBeGreaterThanOrEqual(250)
    expect(settled.opacity).toBe('1')
    await page.close()
  })
})

describe('waitForSettle', () => {
  it('ends after the quiet window on a page that does nothing', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'settle.html')
    const settled = await clickAndSettle(page, 'noop')
    expect(settled.quiet).toBe(true)
    expect(settled.ms).toBeGreaterThanOrEqual(95)
    expect(settled.ms).toBeLessThan(400)
    await page.close()
  })

  it('waits for a popup that fades in a frame after it is added, and reads it fully shown', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'settle.html')
    const settled = await clickAndSettle(page, 'open')
    expect(settled.quiet).toBe(true)
    expect(settled.ms).toBeGreaterThanOrEqual(250)
    expect(settled.opacity).toBe('1')
    await page.close()
  })

  it('is not held by an infinite spinner, a ticking clock, or an animation longer than the bound', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'settle.html#clock')
    await page.reload()
    await page.addScriptTag({ content: await (await import('../support/page-lib')).pageLibSource() })
    expect(await page.locator('.spinner').evaluate((el) => el.getAnimations().length)).toBe(1)
    const settled = await clickAndSettle(page, 'slow')
    expect(Number(await page.locator('#clock').textContent())).toBeGreaterThan(0)
    expect(settled.quiet).toBe(true)
    expect(settled.ms).toBeLessThan(600)
    await page.close()
  })

  it('stops at the bound on a page that never goes still, and says so', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'settle.html')
    const settled = await clickAndSettle(page, 'feed', { maxMs: 800 })
    expect(settled.quiet).toBe(false)
    expect(settled.ms).toBeGreaterThanOrEqual(790)
    expect(settled.ms).toBeLessThan(1200)
    await page.close()
  })
})

describe('watchLoad (from the moment the content script starts in the page)', () => {
  it('counts the stillness since the page started: a reading asked after it has been still goes at once', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'settle.html')
    const settled = await page.evaluate(async () => {
      const w = window as any
      const loaded = w.__tandemPage.watchLoad(window)
      await new Promise((r) => setTimeout(r, 400))
      return loaded.take().settled({ quietMs: 300 })
    })
    expect(settled.quiet).toBe(true)
    // A fresh watch would have waited its unchanged window and frames; this one had them already.
    expect(settled.ms).toBeLessThan(30)
    await page.close()
  })

  it('still waits out the quiet window after a change the page made since it started', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'settle.html')
    const settled = await page.evaluate(async () => {
      const w = window as any
      const loaded = w.__tandemPage.watchLoad(window)
      await new Promise((r) => setTimeout(r, 100))
      document.body.appendChild(document.createElement('p')).textContent = 'late render'
      return loaded.take().settled({ quietMs: 300 })
    })
    expect(settled.quiet).toBe(true)
    expect(settled.ms).toBeGreaterThanOrEqual(280)
    await page.close()
  })

  it('is given once: a second reading watches afresh', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'settle.html')
    const second = await page.evaluate(() => {
      const loaded = (window as any).__tandemPage.watchLoad(window)
      loaded.take()
      return loaded.take()
    })
    expect(second).toBeNull()
    await page.close()
  })
})

describe('typing into a field that suggests', () => {
  /** Types as a person does (the field focused, then its input event), watched and settled as the content script does. */
  function typeAndSettle(page: Page, id: string, text: string): Promise<Settled & { options: string[] }> {
    return page.evaluate(async ({ id, text }) => {
      const lib = (window as any).__tandemPage
      const field = document.getElementById(id) as HTMLInputElement
      document.getElementById('menu')!.innerHTML = ''
      const watch = lib.watchSettle(window)
      field.focus()
      field.value = text
      field.dispatchEvent(new InputEvent('input', { bubbles: true, data: text }))
      const settled = await watch.settled(lib.settleOptionsFor('type', document))
      return { ...settled, options: [...document.querySelectorAll('#menu li')].map((li) => li.textContent!) }
    }, { id, text })
  }

  it('reads the page once its suggestions show, when the field says it suggests (class, combobox role)', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'suggest.html')
    for (const id of ['city', 'owner']) {
      const settled = await typeAndSettle(page, id, 'Li')
      expect(settled.options, id).toEqual(['Lisbon, Portugal', 'Lille, France'])
      expect(settled.quiet, id).toBe(true)
    }
    await page.close()
  })

  it('reads a plain field two frames after the last key, as before', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'suggest.html')
    const settled = await typeAndSettle(page, 'note', 'Li')
    expect(settled.options).toEqual([])
    expect(settled.ms).toBeLessThan(250)
    const kinds = await page.evaluate(() => {
      const lib = (window as any).__tandemPage
      return ['colour', 'age', 'note'].map((id) => (document.getElementById(id)!.focus(), lib.settleOptionsFor('type', document).unchangedMs))
    })
    // A datalist suggests; a number field does not, whatever its autocomplete says.
    expect(kinds).toEqual([700, 20, 20])
    await page.close()
  })
})

import { describe, expect, it } from 'vitest'
import { act, action, observe, openFixture, pageLibSource, useFixtureBrowser } from '../support/page-lib'

const env = useFixtureBrowser()

// The controls only a framework's listeners make: delegated and direct jQuery handlers, React's onClick, Vue's @click,
// Preact's onClick, on elements with no cursor, role or handler attribute.
const BOUND = ['Archive', 'Archive', 'Refresh', 'Open details', 'Like (0)', 'Share']

describe('controls known by the listeners the page bound', () => {
  it('lists what jQuery (delegated or direct), React, Vue and Preact listen to, and not a box as large as the page', async () => {
    const page = await openFixture(env.browser, env.fixtures, 'listeners.html')
    const snapshot = await observe(page)
    expect(snapshot.elements.map((e) => e.text)).toEqual(BOUND)
    expect(snapshot.elementTree).not.toContain('Just words')
    // Clicking what was listed reaches the page's handler.
    const archive = snapshot.elements.find((e) => e.text === 'Archive')!.index
    expect((await act(page, action('click', { target: { by: 'index', value: archive } }))).status).toBe('done')
    expect(await page.textContent('#log')).toBe('archived Invoice #2041;')
    await page.close()
  })

  it("reaches the content script's world: the page's world answers the census with events on the elements", async () => {
    const page = await openFixture(env.browser, env.fixtures, 'listeners.html')
    // A world of its own, as the extension's content script has: it shares the DOM, not the page's JavaScript.
    const cdp = await page.context().newCDPSession(page)
    const { frameTree } = await cdp.send('Page.getFrameTree')
    const { executionContextId } = await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: 'tandem-test' })
    const run = async (expression: string) => (await cdp.send('Runtime.evaluate', { expression, contextId: executionContextId, returnByValue: true, awaitPromise: true })).result.value
    await run(`${await pageLibSource()}; true`)
    expect(await run('typeof window.jQuery')).toBe('undefined')
    expect(await run('__tandemPage.observePage(window).elements.map((e) => e.text)')).toEqual(BOUND)
    // Where nothing in the page's world answers (the page-world script not there), only what the markup says counts.
    const bare = await env.browser.newPage()
    await bare.goto(env.fixtures.url('listeners.html'))
    const cdpBare = await bare.context().newCDPSession(bare)
    const tree = await cdpBare.send('Page.getFrameTree')
    const world = await cdpBare.send('Page.createIsolatedWorld', { frameId: tree.frameTree.frame.id, worldName: 'tandem-test' })
    const runBare = async (expression: string) => (await cdpBare.send('Runtime.evaluate', { expression, contextId: world.executionContextId, returnByValue: true })).result.value
    await runBare(`${await pageLibSource()}; true`)
    expect(await runBare('__tandemPage.observePage(window).elements.map((e) => e.text)')).toEqual([])
    await Promise.all([page.close(), bare.close()])
  })
})

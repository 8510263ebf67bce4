/**
 * Prompt size per step: the real element trees of the fixture pages (observed in Chromium by the extension's page
 * library) in the planner's prompt after ten steps of history, and the share taken by the page tree.
 */
import type { Observation } from '#protocol'
import { buildPrompt } from '../server/lib/agent/prompt/build-prompt'
import type { Page } from 'playwright-core'
import { injectPageLib, launchChromium, observe, openFixture, serveFixtures } from '../test/support/page-lib'
import { table } from './stats'

const PAGES = ['checkout', 'form', 'combobox', 'shadow', 'frames', 'clickable']
const history = Array.from({ length: 10 }, (_, i) => ({
  step: i + 1,
  evaluation: 'The previous step worked; the page shows what was expected.',
  memory: 'Searching for the product, then adding it to the cart and checking out.',
  nextGoal: 'Open the next page of the flow.',
  actions: ['{"type":"click","index":4}'],
  results: ['click: done (now at http://127.0.0.1/shop/cart)'],
}))

const browser = await launchChromium()
const fixtures = await serveFixtures()
const rows: string[][] = []
try {
  const shop = async (): Promise<Page> => {
    // A long result list: 1,000 product cards, each a link, a price and a button (the tree is capped at 500).
    const page = await browser.newPage()
    const cards = Array.from({ length: 1000 }, (_, i) => `<div><a href="/p/${i}">Product ${i} with a longer descriptive name</a> <span>$${i}.99</span> <button>Add to cart</button></div>`)
    await page.setContent(`<h1>Results</h1><input name=q placeholder="Search">${cards.join('')}`)
    await injectPageLib(page)
    return page
  }
  for (const name of [...PAGES, 'generated shop, 1,000 products']) {
    const page = PAGES.includes(name) ? await openFixture(browser, fixtures, `${name}.html`) : await shop()
    const snap = await observe(page)
    const observation: Observation = {
      status: 'done',
      url: snap.url,
      title: snap.title,
      elementTree: snap.elementTree,
      visibleTextSnippet: snap.visibleTextSnippet,
      errors: [],
      timing: {},
    }
    const prompt = buildPrompt({ goal: 'Fill in the form and submit it', history, observation, skills: [], secretNames: [], notes: [], maxTokens: 12_000 })
    rows.push([name, String(snap.elements.length), String(prompt.tokens), String(prompt.treeTokens), `${((prompt.treeTokens / prompt.tokens) * 100).toFixed(0)}%`])
    await page.close()
  }
} finally {
  await browser.close()
  await fixtures.close()
}
console.log(
  `## Prompt size per step (estimated tokens, 10 steps of history)\n\n${table(['fixture page', 'elements', 'prompt tokens', 'page tree tokens', 'tree share'], rows)}`,
)

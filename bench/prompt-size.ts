/**
 * Prompt size per step: the real element trees of the fixture pages (observed in Chromium by the extension's page
 * library) in the planner's prompt after ten steps of history, and the share taken by the page tree; then the
 * planner itself over a long task on the biggest page, to show the budget holding as the history grows.
 */
import { emptyUsage, type Observation } from '#protocol'
import { createLlmPlanner } from '../server/lib/agent/llm-planner'
import { buildPrompt } from '../server/lib/agent/prompt/build-prompt'
import { estimateTokens } from '../server/lib/agent/prompt/tokens'
import type { LlmGateway } from '../server/lib/llm/gateway'
import type { TaskRecord } from '../server/lib/tasks/task-record'
import type { Page } from 'playwright-core'
import { injectPageLib, launchChromium, observe, openFixture, serveFixtures } from '../test/support/page-lib'
import { table } from './stats'
import { printSummary, summaryRow, type SummaryRow } from './summary'

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
const summary: SummaryRow[] = []
let biggest: Observation | undefined
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
    // The same prompt with the page given as Playwright's aria snapshot instead of the element tree.
    const ariaTokens = estimateTokens(await page.locator('body').ariaSnapshot({ timeout: 60_000 }))
    const withAria = prompt.tokens - prompt.treeTokens + ariaTokens
    rows.push([name, String(snap.elements.length), String(prompt.tokens), String(prompt.treeTokens), `${((prompt.treeTokens / prompt.tokens) * 100).toFixed(0)}%`, String(ariaTokens), String(withAria)])
    if (name === 'form' || !PAGES.includes(name)) {
      summary.push(summaryRow(`prompt tokens per step (${name} page)`, String(prompt.tokens), `${withAria} with the aria snapshot`, prompt.tokens / withAria, `10 steps of history; page tree ${prompt.treeTokens} vs aria ${ariaTokens} tokens; lower is better`))
    }
    if (!biggest || observation.elementTree.length > biggest.elementTree.length) biggest = observation
    await page.close()
  }
} finally {
  await browser.close()
  await fixtures.close()
}

/** The real planner for `steps` decisions on one page, with a model that writes a paragraph of memory each time. */
async function longTask(page: Observation, steps: number, maxPromptTokens = 12_000) {
  let call = 0
  const gateway: LlmGateway = {
    model: 'bench',
    async complete() {
      call += 1
      const text = JSON.stringify({
        thinking: 'Looking at the list to find the cheapest product that matches the description.',
        evaluation_previous_goal: 'The last click opened the expected section; the list is still in view.',
        memory: 'Compared products 1–40 so far; the cheapest match is product 17 at $17.99. Still need to check the rest of the list and the shipping cost.',
        next_goal: 'Open the next product in the list.',
        actions: [{ type: 'click', index: (call * 7) % 500 }],
      })
      return { text, model: 'bench', usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, latencyMs: 0, format: 'json_schema' }
    },
  }
  const planner = createLlmPlanner({ gateway, maxSteps: steps + 1, maxPromptTokens })
  const task: TaskRecord = {
    id: 'bench', rev: 0, goal: 'Find the cheapest product that matches the description and put it in the cart', status: 'RUNNING', mode: 'llm',
    createdAt: '', updatedAt: '', queue: [], seq: 0, current: null, steps: [], lastOutcome: null, usage: emptyUsage(),
  }
  const out: { step: number; tokens: number; tree: number; level: number }[] = []
  for (let step = 1; step <= steps; step++) {
    const { state, audit } = await planner.decide({ task, observation: page })
    task.plannerState = state
    out.push({ step, tokens: Number(audit?.promptTokensEstimate), tree: Number(audit?.treeTokensEstimate), level: Number(audit?.compaction) })
    task.seq += 1
    task.steps.push({ seq: task.seq, actionId: `a${step}`, type: 'click', risk: 'low', outcome: 'done', url: page.url, errors: [], at: '' })
    task.lastOutcome = { kind: 'done', actionId: `a${step}`, type: 'click', url: page.url }
  }
  return out
}

const BUDGETS = [12_000, 6_000]
const runs = biggest ? await Promise.all(BUDGETS.map((budget) => longTask(biggest!, 40, budget))) : []
const longRows = [1, 2, 5, 10, 20, 30, 40].map((step) => [
  String(step),
  ...runs.flatMap((run) => {
    const r = run[step - 1]
    return [String(r.tokens), `${String(r.tree)} (${((r.tree / r.tokens) * 100).toFixed(0)}%)`, String(r.level)]
  }),
])
const [first, last] = [runs[0]?.[0], runs[0]?.at(-1)]
if (first && last) {
  summary.push(summaryRow(`prompt growth over a ${last.step}-step task (12k budget)`, `${last.tokens} tokens at step ${last.step}`, `${first.tokens} at step 1`, last.tokens / first.tokens, 'the planner compacts history as it grows'))
}
printSummary(summary)
const longHeader = ['step', ...BUDGETS.flatMap((b) => [`prompt (budget ${b / 1000}k)`, 'tree (share)', 'level'])]
console.log(
  `## Prompt size per step (estimated tokens, 10 steps of history)\n\n${table(['fixture page', 'elements', 'prompt tokens', 'page tree tokens', 'tree share', 'aria snapshot tokens', 'prompt with aria snapshot'], rows)}\n\n` +
    `### One long task on the generated shop page (the real planner, estimated tokens)\n\n${table(longHeader, longRows)}\n\n` +
    'Level 0 is the full prompt; levels 1–3 summarise older steps and cut page text and skill bodies; level 4 also cuts the tail of the tree.',
)

/**
 * Perception micro-benchmark: observePage on generated pages of ~1k, 5k and 20k elements in headless Chromium,
 * beside Playwright's ariaSnapshot of the same page. Prints markdown (bench/run.ts collects it).
 * Run: npx tsx bench/perception.ts
 */
import { pathToFileURL } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { injectPageLib, launchChromium } from '../test/support/page-lib'
import { PERCEPTION_BEFORE, pageLibSourceAt } from './page-lib-at'
import { percentile, table } from './stats'
import { printSummary, summaryRow, type SummaryRow } from './summary'

const RUNS = Number(process.env.BENCH_RUNS ?? 15)

/** A shop-like page: headings, prose, nav links, product cards (clickable divs), forms, selects, hidden bits. */
export function generatePage(targetElements: number): string {
  const blocks: string[] = []
  let count = 0
  for (let i = 0; count < targetElements; i++) {
    blocks.push(`<section class="card" id="s${i}">
  <h2>Product ${i} <small>new</small></h2>
  <p>Some <b>description</b> text for product ${i}, with a <a href="/p/${i}?ref=list">details link</a> and more words.</p>
  <ul><li><a href="/c/${i % 17}">Category ${i % 17}</a></li><li><span>In stock</span></li><li><a href="https://other.example/x/${i}">Partner</a></li></ul>
  <div class="tile" onclick="void 0"><img alt="" src="data:,"><span>Quick view</span><span class="price">${(i * 3.7).toFixed(2)}</span></div>
  <div class="pointer"><span>Open gallery</span></div>
  <form action="/cart"><label>Qty <input type="number" name="qty${i}" value="1"></label>
    <select name="size${i}"><option>S</option><option selected>M</option><option>L</option></select>
    <button type="submit">Add to cart</button></form>
  <div style="display:none"><button>Hidden action</button><a href="/hidden">hidden</a></div>
</section>`)
    count += 27
  }
  return `<!doctype html><html><head><title>Bench ${targetElements}</title>
<style>.pointer{cursor:pointer}.card{padding:8px;border:1px solid #ccc;margin:4px}</style></head>
<body><header><nav><a href="/">Home</a> <a href="/deals">Deals</a> <input type="search" name="q" placeholder="Search"></nav></header>
<main>${blocks.join('\n')}</main></body></html>`
}

/** observePage's in-page times; each run dirties layout first, as an action between two observations would. */
function observeTimes(page: Page): Promise<number[]> {
  return page.evaluate((runs) => {
    const lib = (window as any).__tandemPage
    lib.observePage(window)
    const out: number[] = []
    for (let i = 0; i < runs; i++) {
      document.body.classList.toggle('dirty')
      document.body.append(document.createTextNode(' '))
      const t = performance.now()
      lib.observePage(window)
      out.push(performance.now() - t)
    }
    return out
  }, RUNS)
}

/** The same times for the page library of PERCEPTION_BEFORE, on a page of its own with the same content. */
async function observeTimesBefore(browser: Browser, size: number, source: string): Promise<number[]> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  try {
    await page.setContent(generatePage(size))
    await page.addScriptTag({ content: source })
    return await observeTimes(page)
  } finally {
    await page.close()
  }
}

async function main() {
  const before = await pageLibSourceAt(PERCEPTION_BEFORE)
  const browser = await launchChromium()
  const rows: (string | number)[][] = []
  const summary: SummaryRow[] = []
  try {
    for (const size of [1000, 5000, 20000]) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
      await page.setContent(generatePage(size))
      await injectPageLib(page)
      const domElements = await page.evaluate(() => document.getElementsByTagName('*').length)
      const times = await observeTimes(page)
      const beforeTimes = before ? await observeTimesBefore(browser, size, before) : undefined
      const snapshot = await page.evaluate(() => {
        const s = (window as any).__tandemPage.observePage(window)
        return { tree: s.elementTree.length, indexed: s.stats.indexed, candidates: s.stats.candidates }
      })
      const full = await page.evaluate(() => (window as any).__tandemPage.observePage(window, { maxElements: 1e6 }).elementTree.length)
      const ariaTimes: number[] = []
      let ariaSize = 0
      for (let i = 0; i < Math.min(RUNS, 7); i++) {
        const t = performance.now()
        const aria = await page.locator('body').ariaSnapshot({ timeout: 120_000 })
        ariaTimes.push(performance.now() - t)
        ariaSize = aria.length
      }
      if (size >= 5000) {
        const label = `${(domElements / 1000).toFixed(0)}k-element page`
        const observeP50 = percentile(times, 50)
        const ariaP50 = percentile(ariaTimes, 50)
        summary.push(
          summaryRow(`perception time (${label})`, `${observeP50.toFixed(1)} ms observePage`, `${ariaP50.toFixed(0)} ms ariaSnapshot`, observeP50 / ariaP50, 'p50; ariaSnapshot includes the CDP round trip; lower is better'),
          ...(beforeTimes ? [summaryRow(`perception time against ${PERCEPTION_BEFORE} (${label})`, `${observeP50.toFixed(1)} ms now`, `${percentile(beforeTimes, 50).toFixed(1)} ms at ${PERCEPTION_BEFORE}`, observeP50 / percentile(beforeTimes, 50), 'p50 observePage, same run and browser; lower is better')] : []),
          summaryRow(`perception size (${label})`, `${snapshot.tree.toLocaleString('en')} chars element tree`, `${ariaSize.toLocaleString('en')} chars ariaSnapshot`, snapshot.tree / ariaSize, `tree capped at 500 elements (${full.toLocaleString('en')} chars uncapped); lower is better`),
        )
      }
      rows.push([
        domElements,
        `${snapshot.indexed} / ${snapshot.candidates}`,
        percentile(times, 50).toFixed(1),
        percentile(times, 95).toFixed(1),
        beforeTimes ? percentile(beforeTimes, 50).toFixed(1) : '–',
        snapshot.tree,
        full,
        percentile(ariaTimes, 50).toFixed(0),
        ariaSize,
      ])
      await page.close()
    }
  } finally {
    await browser.close()
  }
  printSummary(summary)
  console.log(`## Perception (observePage vs ariaSnapshot)

${RUNS} runs per size, layout dirtied before each; "at ${PERCEPTION_BEFORE}" is the page library of that commit${before ? '' : ' (not in this clone: not measured)'}; headless Chromium, in-page time. ariaSnapshot time includes the CDP round trip.

${table(
  ['DOM elements', 'indexed / interactive', 'observe p50 ms', 'observe p95 ms', `p50 ms at ${PERCEPTION_BEFORE}`, 'tree chars (cap 500)', 'tree chars (no cap)', 'ariaSnapshot p50 ms', 'ariaSnapshot chars'],
  rows,
)}`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()

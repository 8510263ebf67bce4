/**
 * Step overhead: the same shop steps driven (a) as a scripted Tandem task — server, long-poll, service
 * worker, content script, observation after every step — and (b) directly through Playwright, in the same
 * browser and run. Prints markdown; the ratio (a)/(b) per step is the number to watch (aim ≤ 2.5×).
 * Needs the built server (.output) and the built extension (dist/chrome-mv3): `npm run build`.
 */
import type { Page } from 'playwright-core'
import type { AuditEvent, ScriptStep } from '#protocol'
import { startHarness } from '../e2e/support/harness'
import { percentile, table } from './stats'
import { printSummary, summaryRow } from './summary'

// Ten rounds (71 steps a run): with five, one run's handful of page loads moved the ratio by a tenth from run to run.
const ROUNDS = Number(process.env.STEP_OVERHEAD_ROUNDS ?? 10)

/** The extension's own API, inside its service worker. */
declare const chrome: any

/** One round: search, read the results, scroll, extract, go home. All low risk, so no step waits for a person. */
const round: ScriptStep[] = [
  { type: 'type', selector: 'input[name=q]', text: 'iPhone' },
  { type: 'click', text: 'Search' },
  { type: 'waitFor', text: 'Results for' },
  { type: 'scroll', direction: 'down' },
  { type: 'extract', instruction: 'product names and prices' },
  { type: 'navigate', url: '' },
  { type: 'waitFor', text: 'Fixture Shop' },
]

async function viaPlaywright(page: Page, home: string, rounds: number): Promise<number[]> {
  // A background tab gets throttled animation frames, which Playwright's actionability checks wait on.
  await page.bringToFront()
  const times: number[] = []
  const timed = async (fn: () => Promise<unknown>) => {
    const t = performance.now()
    await fn()
    times.push(performance.now() - t)
  }
  await page.goto(home)
  for (let i = 0; i < rounds; i++) {
    await timed(() => page.fill('input[name=q]', 'iPhone'))
    await timed(() => Promise.all([page.waitForURL(/\/shop\/search/), page.getByRole('button', { name: 'Search' }).click()]))
    await timed(() => page.getByText('Results for').first().waitFor())
    await timed(() => page.mouse.wheel(0, 600))
    await timed(() => page.evaluate(() => document.body.innerText))
    await timed(() => page.goto(home))
    await timed(() => page.getByText('Fixture Shop').first().waitFor())
  }
  return times
}

const h = await startHarness()
try {
  const home = `${h.site.url}/shop/`
  const script = Array.from({ length: ROUNDS }, () => round.map((s) => (s.type === 'navigate' ? { ...s, url: home } : s))).flat()

  // Warm both paths once (first injection, first page load) so neither pays a cold start in the numbers.
  const warm = await h.runScript(round.map((s) => (s.type === 'navigate' ? { ...s, url: home } : s)), home)
  await h.waitFor(warm, ['SUCCEEDED', 'FAILED'], 120_000)
  const page = await h.ext.context.newPage()
  await viaPlaywright(page, home, 1)

  /** One scripted run with the write barrier on or off (it is on for every step a person did not approve). */
  async function timedRun(barrier: boolean) {
    const sw = await h.ext.worker()
    await sw.evaluate((on) => chrome.storage.local.set({ 'tandem.barrier': on }), barrier)
    const taskId = await h.runScript(script, home, 'step overhead benchmark')
    const view = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'], 600_000)
    if (view.task.status !== 'SUCCEEDED') throw new Error(`the benchmark task ${view.task.status}: ${JSON.stringify(view.steps.at(-1))}`)
    // From the task's creation to its end, as its audit dates them: the harness looks for the end only every 100 ms.
    const events: AuditEvent[] = await h.audit(taskId)
    const dated = (type: AuditEvent['type']) => Date.parse(events.find((e) => e.type === type)!.ts)
    const wall = dated('task.finished') - dated('task.created')
    return { taskId, view, wall }
  }

  // On, off, off, on, with the direct baseline run between them: a drift of the machine over the run falls on every
  // side alike.
  const { taskId, view, wall } = await timedRun(true)
  const direct = await viaPlaywright(page, home, ROUNDS)
  const offWalls = [(await timedRun(false)).wall, (await timedRun(false)).wall]
  direct.push(...(await viaPlaywright(page, home, ROUNDS)))
  const onWalls = [wall, (await timedRun(true)).wall]
  const perStep = (walls: number[]) => walls.reduce((a, b) => a + b, 0) / walls.length / view.steps.length
  const barrierRatio = perStep(onWalls) / perStep(offWalls)

  // Per step from the audit: dispatched → report received (extension), and report → next dispatch (server + poll).
  const events: AuditEvent[] = await h.audit(taskId)
  const at = (e: AuditEvent) => Date.parse(e.ts)
  const dispatched = new Map(events.filter((e) => e.type === 'action.dispatched').map((e) => [e.actionId!, at(e)]))
  const reported = events.filter((e) => e.type === 'report.received')
  const inExtension = reported.map((e) => at(e) - dispatched.get(e.actionId!)!)
  const order = events.filter((e) => e.type === 'action.dispatched' || e.type === 'report.received')
  const between: number[] = []
  for (let i = 1; i < order.length; i++) if (order[i - 1].type === 'report.received' && order[i].type === 'action.dispatched') between.push(at(order[i]) - at(order[i - 1]))
  const steps = view.steps.length
  // Per step type, from each observation's timing: the whole step in the extension, and the page's settling in it.
  const typeOf = new Map(view.steps.map((s) => [s.actionId, s.type]))
  const observed = events.filter((e) => e.type === 'observation') as unknown as { actionId: string; data: { timing: Record<string, number> } }[]
  const byType = new Map<string, { total: number[]; settle: number[]; marks: Map<string, number[]> }>()
  observed.forEach((e) => {
    const type = typeOf.get(e.actionId) ?? '?'
    const row = byType.get(type) ?? { total: [], settle: [], marks: new Map<string, number[]>() }
    for (const [mark, value] of Object.entries(e.data.timing)) row.marks.set(mark, [...(row.marks.get(mark) ?? []), value])
    row.total.push(e.data.timing.totalMs ?? 0)
    const settled = e.data.timing['page.settleMs']
    if (settled !== undefined) row.settle.push(settled)
    byType.set(type, row)
  })
  const tandemPerStep = perStep(onWalls)
  const directPerStep = direct.reduce((a, b) => a + b, 0) / direct.length
  const ratio = tandemPerStep / directPerStep

  const ms = (n: number) => n.toFixed(1)
  printSummary([
    summaryRow(
      `step overhead (${steps} shop steps)`,
      `${ms(tandemPerStep)} ms/step Tandem`,
      `${ms(directPerStep)} ms/step Playwright direct`,
      ratio,
      'same browser and run; Tandem also observes the page every step; aim ≤ 2.5×',
    ),
    summaryRow(
      `write barrier (${steps} shop steps, twice each way)`,
      `${ms(perStep(onWalls))} ms/step with it`,
      `${ms(perStep(offWalls))} ms/step without`,
      barrierRatio,
      'same steps, browser and run, on/off/off/on; aim ≤ 1.2×',
    ),
  ])
  console.log(`## Step overhead (Tandem task vs. Playwright, ${steps} steps, ${ROUNDS} rounds)

${table(
  ['path', 'per step (mean ms)', 'p50 ms', 'p95 ms'],
  [
    ['Tandem: created → finished / steps (two runs)', ms(tandemPerStep), '', ''],
    ['· in the extension (dispatch → report)', ms(inExtension.reduce((a, b) => a + b, 0) / inExtension.length), ms(percentile(inExtension, 50)), ms(percentile(inExtension, 95))],
    ['· server + poll (report → next dispatch)', ms(between.reduce((a, b) => a + b, 0) / Math.max(1, between.length)), ms(percentile(between, 50)), ms(percentile(between, 95))],
    ['Playwright direct (two runs)', ms(directPerStep), ms(percentile(direct, 50)), ms(percentile(direct, 95))],
  ],
)}

Per step type (the extension's own timing; settle = the page going still before it is read):

${table(
  ['step', 'n', 'in the extension, mean ms', 'settle p50 ms', 'settle max ms'],
  [...byType].map(([type, r]) => [type, String(r.total.length), ms(r.total.reduce((a, b) => a + b, 0) / r.total.length), r.settle.length ? ms(percentile(r.settle, 50)) : '', r.settle.length ? ms(Math.max(...r.settle)) : '']),
)}

${process.env.STEP_OVERHEAD_MARKS ? `Timing marks per step type (mean ms; \`page.*\` are durations in the page, the rest ms since the step began):

${[...byType].map(([type, r]) => `- ${type}: ${[...r.marks].map(([m, v]) => `${m} ${ms(v.reduce((a, b) => a + b, 0) / v.length)}`).join(', ')}`).join('\n')}

` : ''}**Ratio: ${ratio.toFixed(2)}×** (aim ≤ 2.5×). Tandem's steps each include an observation of the page (element tree, text) and, on navigation, a screenshot; Playwright's do not.

**Write barrier: ${barrierRatio.toFixed(2)}×** (aim ≤ 1.2×): the same task with the barrier on (${onWalls.map((w) => ms(w / steps)).join(', ')} ms/step) and off (${offWalls.map((w) => ms(w / steps)).join(', ')} ms/step), run on, off, off, on.`)
} finally {
  await h.close()
}

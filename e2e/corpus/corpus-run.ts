import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startFakeLlm } from '../../test/support/fake-llm'
import { startHarness } from '../support/harness'
import { buildCorpusPages } from './build'
import { corpusModel } from './model'
import { markdown, summarise, type Summary } from './report'
import { runCase, type CaseResult, type Mode } from './run-case'
import { startCorpusSite } from './site'
import type { Case } from './types'

export interface CorpusOptions {
  cases: Case[]
  modes: Mode[]
  /** Per run; one stuck task cannot stall the rest. */
  timeoutMs?: number
  /** Approve every confirmation instead: checks that each irreversible case really sends its request. */
  approve?: boolean
  /**
   * Then run these cases again in these modes with the debugger refused on every tab (the barrier's fallback, where
   * writes are blocked and the label rules ask first), in the same browser.
   */
  fallback?: { cases: Case[]; modes: Mode[] }
  /** Where corpus.md and corpus.json go. */
  outDir?: string
  log?: (line: string) => void
}

/**
 * The whole measurement: built pages, the built server (with the fake model), the corpus site and Chromium with
 * the production extension; every case in every mode, one after another in one browser.
 */
export async function runCorpus(options: CorpusOptions): Promise<{ results: CaseResult[]; summary: Summary; seconds: number }> {
  const { cases, modes, timeoutMs = 20_000, approve = false, outDir = 'e2e/output', log = () => undefined, fallback } = options
  buildCorpusPages()
  // The site serves, and the model knows, every page either pass runs (a fallback-only run has no cases of its own).
  const served = [...new Map([...cases, ...(fallback?.cases ?? [])].map((c) => [c.id, c])).values()]
  const model = corpusModel(served)
  const llm = await startFakeLlm(model.rule)
  const site = await startCorpusSite(served)
  const h = await startHarness({ env: { TANDEM_LLM_BASE_URL: llm.url, TANDEM_LLM_MODEL: 'fake-corpus' } })
  const began = Date.now()
  const results: CaseResult[] = []
  const name = approve ? 'corpus-approved' : !modes.length && fallback ? 'corpus-fallback' : 'corpus'
  mkdirSync(outDir, { recursive: true })
  const save = () => {
    const seconds = (Date.now() - began) / 1000
    writeFileSync(join(outDir, `${name}.json`), JSON.stringify({ summary: summarise(results), seconds, results }, null, 1))
    writeFileSync(join(outDir, `${name}.md`), markdown(results, { seconds, approve }))
    return seconds
  }
  let seconds = 0
  const passes = [...modes.map((mode) => ({ mode, cases, fallback: false })), ...(fallback?.modes ?? []).map((mode) => ({ mode, cases: fallback!.cases, fallback: true }))]
  try {
    for (const { mode, cases, fallback } of passes) {
      for (const c of cases) {
        if (fallback) await refuseDebugger(h)
        model.reset(c.id)
        const result = { ...(await runCase(h, site, c, mode, timeoutMs, approve)), ...(fallback ? { fallback } : {}) }
        if (mode === 'llm' && model.misses.has(c.id)) result.note = `the model did not find ${model.misses.get(c.id)}`
        results.push(result)
        // Written as it goes: an interrupted run still leaves its figures so far.
        seconds = save()
        log(`${mode}${fallback ? ' (fallback)' : ''} ${c.id}: ${result.asked ? 'asked' : '-'} ${result.unapproved ? 'UNAPPROVED' : ''} ${result.status} ${result.ms}ms`)
        // A page left open keeps its sockets and timers: the next case starts from a quiet browser.
        for (const page of h.ext.context.pages()) if (page.url().includes('/c/')) await page.close().catch(() => undefined)
      }
    }
  } finally {
    seconds = save()
    // Bounded: a close that hangs must not hold the figures back.
    const closing = Promise.allSettled([h.close(), site.close(), llm.close()])
    await Promise.race([closing, new Promise((r) => setTimeout(r, 15_000))])
  }
  const summary = summarise(results)
  return { results, summary, seconds }
}

// Runs in the extension's worker, where chrome is the extension API.
declare const chrome: {
  storage: { session: { set(items: Record<string, unknown>): Promise<void> } }
  tabs: { query(q: object): Promise<{ id?: number }[]> }
}

/**
 * As if the person had canceled Chrome's debugging bar on the next case's tab: the worker's list of declined tabs
 * (see createTabDebugger) names the tabs open now and the next ids the browser will give, which it gives in order.
 */
async function refuseDebugger(h: Awaited<ReturnType<typeof startHarness>>): Promise<void> {
  const sw = await h.ext.worker()
  await sw.evaluate(async () => {
    const open = (await chrome.tabs.query({})).map((t) => t.id ?? 0)
    const last = Math.max(0, ...open)
    await chrome.storage.session.set({ 'tandem.debugger.declined': [...open, ...Array.from({ length: 200 }, (_, i) => last + 1 + i)] })
  })
}

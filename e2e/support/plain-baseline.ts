/** Plain Playwright in a plain Chromium (no extension): the baseline the zoo and the apps corpus measure Tandem against. */
import { chromium, type Browser, type Page } from 'playwright-core'
import { CHROMIUM } from './browser'
import type { Verdict } from './plan-run'

export interface BaselineResult {
  id: string
  ok: boolean
  why: string
  ms: number
}

export interface PlainBaseline {
  /**
   * Opens `startUrl` in a fresh context and does the task with its own locators; `read` takes what the verdict needs
   * from the page while it is open (its state), `judge` gives the verdict once the context is closed (so what a page
   * sends as it closes still reaches a request log).
   */
  run<S>(id: string, startUrl: string, act: (page: Page) => Promise<void>, read: (page: Page) => Promise<S>, judge: (state: S) => Verdict): Promise<BaselineResult>
  close(): Promise<void>
}

export async function startPlainBaseline(): Promise<PlainBaseline> {
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] })
  return {
    async run(id, startUrl, act, read, judge) {
      const started = Date.now()
      const context = await browser.newContext({ viewport: { width: 1200, height: 900 } })
      context.setDefaultTimeout(8000)
      const page = await context.newPage()
      let error = ''
      try {
        await page.goto(startUrl, { waitUntil: 'load' })
        await act(page)
      } catch (e) {
        error = String((e as Error).message ?? e).split('\n')[0]!
      }
      const state = await read(page).then((s) => ({ s }), (e) => ({ unread: String((e as Error).message ?? e).split('\n')[0] }))
      await context.close()
      const verdict: Verdict = 'unread' in state ? { ok: false, why: `the page's state could not be read: ${state.unread}` } : judge(state.s)
      return { id, ok: verdict.ok, why: verdict.ok ? '' : [error, verdict.why].filter(Boolean).join('; '), ms: Date.now() - started }
    },
    close: () => browser.close(),
  }
}

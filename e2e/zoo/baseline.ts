import { chromium, type Browser } from 'playwright-core'
import { CHROMIUM } from '../support/browser'
import { judge, type ZooSite } from './site'
import type { Task } from './types'

export interface BaselineResult {
  id: string
  ok: boolean
  why: string
  ms: number
}

/** Requests sent a little after the last step (an upload, a beacon) still count. */
const TAIL_MS = 400

/** Plain Playwright in a plain Chromium (no extension): the task's own locators, then the same verdict as Tandem's. */
export async function startBaseline(site: ZooSite, files: string): Promise<{ run(task: Task): Promise<BaselineResult>; close(): Promise<void> }> {
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] })
  return {
    async run(task) {
      const started = Date.now()
      const from = site.log.length
      const context = await browser.newContext({ viewport: { width: 1200, height: 900 } })
      context.setDefaultTimeout(8000)
      const page = await context.newPage()
      let error = ''
      try {
        await page.goto(site.startUrl(task), { waitUntil: 'load' })
        await task.baseline(page, files)
        await page.waitForTimeout(TAIL_MS)
      } catch (e) {
        error = String((e as Error).message ?? e).split('\n')[0]!
      }
      await context.close()
      const verdict = judge(task.expect, site.log.slice(from).filter((a) => a.taskId === task.id))
      return { id: task.id, ok: verdict.ok, why: verdict.ok ? '' : [error, verdict.why].filter(Boolean).join('; '), ms: Date.now() - started }
    },
    close: () => browser.close(),
  }
}

import type { Page } from 'playwright-core'
import type { StatusView } from '#protocol'
import type { Harness } from './harness'

/**
 * The tab a task's last step was on, as Playwright sees it: where a test reads what really happened, instead of
 * taking the task's SUCCEEDED for it. The newest tab at that address when several show it.
 */
export function taskPage(h: Harness, view: StatusView): Page {
  const url = view.steps.findLast((s) => s.url)?.url
  if (!url) throw new Error(`task ${view.task.id} has no step with a page`)
  const page = h.ext.context.pages().findLast((p) => p.url() === url)
  if (!page) throw new Error(`no tab shows ${url}, where task ${view.task.id} ended; open: ${h.ext.context.pages().map((p) => p.url()).join(', ')}`)
  return page
}
